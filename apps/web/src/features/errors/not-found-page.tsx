import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth-store.ts';
import { dashboardLink } from '../../lib/nav/guards.ts';

/** Not-found screen (spec 000 §2 /not-found; unknown paths land here). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <Center mih="100vh" p="xl">
      <Stack align="center" maw={520} ta="center" data-testid="not-found">
        <Text fz={72} fw={800} c="dimmed" lh={1} aria-hidden>
          404
        </Text>
        <Title order={1} data-testid="page-title">
          {t('errors.not_found_title')}
        </Title>
        <Text c="dimmed">{t('errors.not_found_text')}</Text>
        <Button component={Link} to={user ? dashboardLink(user) : '/'} data-testid="not-found-home">
          {user ? t('screens.common.go_dashboard') : t('errors.go_home')}
        </Button>
      </Stack>
    </Center>
  );
}
