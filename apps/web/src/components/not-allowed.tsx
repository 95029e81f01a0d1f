import { Alert, Text, Title } from '@mantine/core';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client.ts';

// One not-allowed state (ADR 023): a screen whose call answers 403 shows this instead of its content, so
// a role never sees an empty table under an Add button it may not use. The route wraps each screen in a
// NotAllowedBoundary; any part of the screen reports a 403 with useReportForbidden.

/** The not-allowed state itself: what happened and what to do. */
export function NotAllowed() {
  const { t } = useTranslation();
  return (
    <Alert color="gray" variant="light" data-testid="not-allowed" role="alert">
      <Title order={3} mb="xs">
        {t('layout.not_allowed.title')}
      </Title>
      <Text size="sm">{t('layout.not_allowed.body')}</Text>
    </Alert>
  );
}

const ReportForbidden = createContext<(() => void) | null>(null);

export const isForbidden = (err: unknown) => err instanceof ApiError && err.status === 403;

/** Shows NotAllowed in place of its children once any of them reports a 403 (key it by the path). */
export function NotAllowedBoundary({ children }: { children: ReactNode }) {
  const [forbidden, setForbidden] = useState(false);
  if (forbidden) return <NotAllowed />;
  return <ReportForbidden.Provider value={() => setForbidden(true)}>{children}</ReportForbidden.Provider>;
}

/**
 * Reports `error` to the screen's boundary when it is a 403. Answers whether it was one, so a part used
 * outside a boundary can show NotAllowed itself.
 */
export function useReportForbidden(error: unknown): boolean {
  const report = useContext(ReportForbidden);
  const forbidden = isForbidden(error);
  useEffect(() => {
    if (forbidden) report?.();
  }, [forbidden, report]);
  return forbidden;
}
