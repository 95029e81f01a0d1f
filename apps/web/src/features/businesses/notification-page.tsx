import { Alert, Loader, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../lib/auth-store.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { useOwnBusiness } from './api/business-settings.ts';
import { NotificationSection } from './notification-section.tsx';

/** business.setting.notification: the notification section of the settings on its own. */
export default function NotificationPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const isAdmin = userCan(user, 'businessSettings.manage');
  const own = useOwnBusiness(isAdmin);
  return (
    <Stack maw={760}>
      <Title order={2} data-testid="page-title">
        {t('business.setting.notifications')}
      </Title>
      {isAdmin && own.isPending ? (
        <Loader size="sm" />
      ) : isAdmin ? (
        <NotificationSection business={own.data} />
      ) : (
        <Alert color="yellow">{t('business.setting.admin_only')}</Alert>
      )}
    </Stack>
  );
}
