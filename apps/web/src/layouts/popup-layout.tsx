import { Box, Flex } from '@mantine/core';
import { Outlet } from 'react-router';
import { SiteFooter } from './site-footer.tsx';

export default function PopupLayout() {
  return (
    <Flex direction="column" mih="100vh">
      <Box flex={1} p="xl">
        <Outlet />
      </Box>
      <SiteFooter />
    </Flex>
  );
}
