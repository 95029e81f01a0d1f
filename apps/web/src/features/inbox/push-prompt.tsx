import { Alert, Anchor, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../lib/auth-store.ts';
import { toastError } from '../../lib/toast.ts';
import { enablePush, pushSupported, renewPush } from './push.ts';

/** Spec 000 §8: 'We recommend enabling desktop notification. Please Click Here to enable.' (businesses). */
export function PushPrompt() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [permission, setPermission] = useState(() => (pushSupported() ? Notification.permission : 'denied'));
  const isBusiness = user?.role_group === 'Business';

  useEffect(() => {
    if (isBusiness) void renewPush();
  }, [isBusiness]);

  if (!isBusiness || permission !== 'default') return null;
  const onClick = async () => {
    try {
      await enablePush();
    } catch {
      toastError(t('inbox.push.failed'));
    }
    setPermission(Notification.permission);
  };
  return (
    <Alert color="blue" data-testid="push-prompt">
      <Text size="sm">
        {t('inbox.push.prompt')}{' '}
        <Anchor component="button" type="button" onClick={() => void onClick()}>
          {t('inbox.push.click_here')}
        </Anchor>{' '}
        {t('inbox.push.to_enable')}
      </Text>
    </Alert>
  );
}
