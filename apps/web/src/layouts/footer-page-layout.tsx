import { Box, Flex } from '@mantine/core';
import { Outlet } from 'react-router';
import { SiteFooter } from './site-footer.tsx';

/** The order, popup and product pages: the page, then the site's footer (one layout, three route names). */
export function FooterPageLayout() {
  return (
    <Flex direction="column" mih="100vh">
      <Box flex={1} p="xl">
        <Outlet />
      </Box>
      <SiteFooter />
    </Flex>
  );
}
