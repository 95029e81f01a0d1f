import { Alert, Button, Code, CopyButton, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { embedCodeQuery } from './api/installs.ts';

/** The install's embed code (GET /v1/installs/{id}/embed-code) with a Copy button. */
export function EmbedCode({ installId }: { installId: number }) {
  const { t } = useTranslation();
  const code = useQuery(embedCodeQuery(installId));
  if (code.isPending) return <Loader size="sm" />;
  if (code.isError)
    return (
      <Alert color="red" data-testid="install-embed-error">
        {code.error.message || t('common.load_failed')}
      </Alert>
    );
  const text = code.data.code;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {t('business.installs.embed_hint')}
      </Text>
      <Code block data-testid="install-embed-code">
        {text}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              onClick={() => {
                // A browser without the clipboard API (plain http) still lets the person select the code.
                if (navigator.clipboard) copy();
              }}
              data-testid="install-embed-copy"
            >
              {copied ? t('business.installs.copied') : t('business.installs.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** A row's 'Embed code' button: the code in a dialog. */
export function EmbedCodeButton({ installId }: { installId: number }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="light"
        onClick={() => setOpened(true)}
        data-testid={`install-embed-${installId}`}
      >
        {t('business.installs.embed')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('business.installs.embed_title')}
        size="lg"
      >
        {opened && <EmbedCode installId={installId} />}
      </Modal>
    </>
  );
}
