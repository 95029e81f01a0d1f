import { Button, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client.ts';
import { textValue } from '../../lib/text-value.ts';
import { useStartConversation } from './api/inbox.ts';

/**
 * 'New conversation': a phone (and a name) on the chosen install; the conversation opens, a new one or the
 * one the business already has with that phone (on its own install, ADR 052).
 */
export function NewConversation({
  installId,
  onStarted,
}: {
  installId: number;
  onStarted: (id: number, installId: number) => void;
}) {
  const { t } = useTranslation();
  const start = useStartConversation(installId);
  const [opened, setOpened] = useState(false);
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const error = start.error instanceof ApiError ? start.error.field('phone') : undefined;
  return (
    <>
      <Button size="xs" onClick={() => setOpened(true)} data-testid="new-conversation">
        {t('inbox.new.button')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('inbox.new.title')}>
        <Stack>
          <TextInput label={t('inbox.new.phone')} {...textValue(phone, setPhone)} error={error} required />
          <TextInput label={t('inbox.new.name')} {...textValue(name, setName)} />
          <Button
            loading={start.isPending}
            disabled={!phone.trim()}
            onClick={() =>
              start.mutate(
                { phone: phone.trim(), ...(name.trim() ? { name: name.trim() } : {}) },
                {
                  onSuccess: (res) => {
                    setOpened(false);
                    setPhone('');
                    setName('');
                    onStarted(res.data.id, res.data.install_id ?? installId);
                  },
                },
              )
            }
          >
            {t('inbox.new.start')}
          </Button>
        </Stack>
      </Modal>
    </>
  );
}
