import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../lib/auth-store.ts';

// What every screen that changes an e-mail or a password, or sends a password link, needs to know
// (ADR 050): an impersonation never does any of it (the server answers 403 `credentials.impersonation`),
// and a new address waits for its confirmation.

/**
 * While acting as another user: the visible hint to show beside the e-mail and password controls, which
 * are then disabled. Null when this session may use them.
 */
export function useImpersonationLock(): string | null {
  const { t } = useTranslation();
  const { mainToken } = useAuth();
  return mainToken !== null ? t('screens.credentials.impersonating_hint') : null;
}

/**
 * The address a user was asked to move to and has not confirmed yet (`pending_email` of the answer); the
 * profile speaks to its owner (`own`), the user screens to whoever manages the user.
 */
export function PendingEmailNotice(props: {
  pending: string | null | undefined;
  current: string;
  own?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  if (!props.pending) return null;
  const key = props.own ? 'screens.profile.pending_email' : 'screens.credentials.pending_email';
  return (
    <Alert color="yellow" data-testid={props.testId}>
      {t(key, { email: props.pending, current: props.current })}
    </Alert>
  );
}
