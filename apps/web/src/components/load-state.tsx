import { Alert, Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A screen's record is still loading. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}

/** A screen's record could not be loaded: the server's message when it sent one, else a generic one. */
export function LoadFailed({ message, testId }: { message?: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" data-testid={testId}>
      {message ?? t('common.load_failed')}
    </Alert>
  );
}
