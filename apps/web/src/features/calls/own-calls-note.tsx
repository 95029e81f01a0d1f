import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../lib/auth-store.ts';
import { userCan } from '../../lib/nav/user-can.ts';

/**
 * A user without calls.all is shown only its own calls (the server filters them): said above the list,
 * so an empty list does not read as "the business has no calls" (ADR 051).
 */
export function OwnCallsNote({ textKey }: { textKey: string }) {
  const { t } = useTranslation();
  if (userCan(useAuth().user, 'calls.all')) return null;
  return (
    <Text c="dimmed" size="sm" data-testid="calls-own-only">
      {t(textKey)}
    </Text>
  );
}
