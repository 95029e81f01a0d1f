import { Alert, Button, List, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * 'Restricted Message Content' of spec 000 §8: shown when a send is refused for its content; it shows the
 * filtered preview and closes only with 'Got It' (no close button, no Escape, no click outside).
 */
export function RestrictedContentModal({
  preview,
  onClose,
}: {
  preview: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={preview !== null}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      title={t('inbox.restricted.title')}
      centered
    >
      <Stack data-testid="restricted-content-modal">
        <Text size="sm">{t('inbox.restricted.intro')}</Text>
        <List size="sm">
          <List.Item>{t('inbox.restricted.violence')}</List.Item>
          <List.Item>{t('inbox.restricted.adult')}</List.Item>
          <List.Item>{t('inbox.restricted.profanity')}</List.Item>
          <List.Item>{t('inbox.restricted.hate')}</List.Item>
          <List.Item>{t('inbox.restricted.drugs')}</List.Item>
        </List>
        <Alert color="red">{t('inbox.restricted.warning')}</Alert>
        <Text size="sm" fw={600}>
          {t('inbox.restricted.preview')}
        </Text>
        <Text size="sm" data-testid="restricted-preview" style={{ whiteSpace: 'pre-wrap' }}>
          {preview}
        </Text>
        <Button onClick={onClose}>{t('inbox.restricted.ok')}</Button>
      </Stack>
    </Modal>
  );
}
