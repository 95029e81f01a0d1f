import { Box, Flex, Image, Paper, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { useSite } from '../lib/site.ts';

/** Sign-in screens: the login logo beside the form (spec 000 §2). */
export default function AuthLayout() {
  const { data: site } = useSite();
  const logo = site?.loginLogo ?? site?.headerLogo;
  return (
    <Flex mih="100vh" direction={{ base: 'column', sm: 'row' }} bg="gray.0">
      <Flex flex={1} align="center" justify="center" p="xl" bg="brand.6" data-testid="auth-logo-panel">
        {logo ? (
          <Image src={logo} alt={site?.title ?? ''} maw={320} fit="contain" data-testid="login-logo" />
        ) : (
          <Title c="white">{site?.title}</Title>
        )}
      </Flex>
      <Flex flex={1} align="center" justify="center" p="xl">
        <Paper w="100%" maw={420} p="xl" radius="md" withBorder>
          <Box>
            <Outlet />
          </Box>
        </Paper>
      </Flex>
    </Flex>
  );
}
