import { Anchor, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Agency-only footer (spec 000 §2): copyright year, site title and a support contact line. */
export function AppFooter({ siteTitle, supportEmail }: { siteTitle: string; supportEmail: string }) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" data-testid="app-footer">
      <Text size="xs" c="dimmed" truncate>
        {t('layout.footer.copyright', { year: new Date().getFullYear(), title: siteTitle })}
      </Text>
      {supportEmail && (
        <Text size="xs" c="dimmed" truncate data-testid="footer-support">
          {t('layout.footer.support')}{' '}
          <Anchor href={`mailto:${supportEmail}`} size="xs">
            {supportEmail}
          </Anchor>
        </Text>
      )}
    </Group>
  );
}
