import { Alert, Button, Loader, Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeSnippet } from '../../components/code-snippet.tsx';
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
  return (
    <CodeSnippet
      code={code.data.code}
      hint={t('business.installs.embed_hint')}
      copy={t('business.installs.copy')}
      copied={t('business.installs.copied')}
      testId="install-embed"
    />
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
