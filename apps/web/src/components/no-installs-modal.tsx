import { Anchor, Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type Props = {
  opened: boolean;
  onClose: () => void;
  /** Support e-mail shown in the contact line (site data); the line is generic without one. */
  supportEmail?: string | null;
};

/**
 * 'No Installs Available' (spec 000 §2, §8): shown when an agency has no available installs; it tells the
 * user to delete an install or upgrade to add more, and to contact support.
 */
export function NoInstallsModal({ opened, onClose, supportEmail }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('layout.no_installs.title')}
      centered
      data-testid="no-installs-modal"
    >
      <Text mb="sm">{t('layout.no_installs.body')}</Text>
      <Text size="sm" c="dimmed">
        {supportEmail ? (
          <>
            {t('layout.no_installs.contact_at')}{' '}
            <Anchor href={`mailto:${supportEmail}`}>{supportEmail}</Anchor>
          </>
        ) : (
          t('layout.no_installs.contact')
        )}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose} data-testid="no-installs-close">
          {t('layout.no_installs.ok')}
        </Button>
      </Group>
    </Modal>
  );
}
