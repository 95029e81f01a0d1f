import { Alert, Loader, Stack, Title } from '@mantine/core';
import type { TBusiness } from '@stn/contracts/businesses';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../lib/auth-store.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { useOwnBusiness } from './api/business-settings.ts';

/**
 * A business setting screen of its own (notifications, analytics integration): its title, then its section
 * for the business's admins once the business is loaded, or a note that only they may change it.
 */
export function AdminSettingPage({
  title,
  Section,
}: {
  title: string;
  Section: ComponentType<{ business: TBusiness | null | undefined }>;
}) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const isAdmin = userCan(user, 'businessSettings.manage');
  const own = useOwnBusiness(isAdmin);
  return (
    <Stack maw={760}>
      <Title order={2} data-testid="page-title">
        {t(title)}
      </Title>
      {isAdmin && own.isPending ? (
        <Loader size="sm" />
      ) : isAdmin ? (
        <Section business={own.data} />
      ) : (
        <Alert color="yellow">{t('business.setting.admin_only')}</Alert>
      )}
    </Stack>
  );
}
