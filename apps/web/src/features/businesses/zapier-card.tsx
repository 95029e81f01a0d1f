import { Alert, Button, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { formatDate } from '@stn/contracts/format';
import type { TApiKey, TZapierConnection } from '@stn/contracts/zapier';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyValueButton } from '../../components/copy-value-button.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { ApiError, api } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-store.ts';
import { queryClient } from '../../lib/query-client.ts';

// The business's Zapier card (ADR 089) on its settings screen, for its admin: API keys (created, shown
// once with a copy button, revoked) and the Zapier connections made by signing in from Zapier (revoked).

const KEYS = ['zapier', 'keys'] as const;
const CONNECTIONS = ['zapier', 'connections'] as const;

const useKeys = () =>
  useQuery<TApiKey[]>({
    queryKey: KEYS,
    queryFn: async () =>
      (await api<{ data: TApiKey[] }>('/v1/businesses/zapier/keys', { silent: true })).data,
    retry: false,
  });
const useConnections = () =>
  useQuery<TZapierConnection[]>({
    queryKey: CONNECTIONS,
    queryFn: async () =>
      (await api<{ data: TZapierConnection[] }>('/v1/businesses/zapier/connections', { silent: true })).data,
    retry: false,
  });
const refresh = () => {
  void queryClient.invalidateQueries({ queryKey: ['zapier'] });
};

function NewKey() {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: { name: string }) =>
      api<{ data: TApiKey & { key: string } }>('/v1/businesses/zapier/keys', { method: 'POST', body }),
    onSuccess: (res) => {
      setShown(res.data.key);
      setName('');
      refresh();
    },
    onError: (err) => setError(err instanceof ApiError ? (err.field('name') ?? err.message) : String(err)),
  });
  return (
    <Stack gap="xs">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          create.mutate({ name });
        }}
        noValidate
      >
        <Group align="flex-end">
          <TextInput
            label={t('zapier.card.key_name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
            data-testid="zapier-key-name"
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={create.isPending} data-testid="zapier-key-create">
            {t('zapier.card.new_key')}
          </Button>
        </Group>
      </form>
      {shown && (
        <Alert color="yellow" data-testid="zapier-key-shown">
          <Stack gap="xs">
            <Text size="sm">{t('zapier.card.shown_once')}</Text>
            <Group wrap="nowrap">
              <Code data-testid="zapier-key-value" style={{ wordBreak: 'break-all' }}>
                {shown}
              </Code>
              <CopyValueButton
                value={shown}
                size="xs"
                copy={t('zapier.card.copy')}
                copied={t('zapier.card.copied')}
                testId="zapier-key-copy"
              />
            </Group>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

function KeyRow({ k }: { k: TApiKey }) {
  const { t, i18n } = useTranslation();
  const revoke = useMutation({
    mutationFn: () => api(`/v1/businesses/zapier/keys/${k.id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return (
    <Group justify="space-between" data-testid="zapier-key-row">
      <div>
        <Text fw={500}>{k.name}</Text>
        <Text size="xs" c="dimmed">
          {k.prefix}… ·{' '}
          {k.last_used_at
            ? t('zapier.card.last_used', { date: formatDate(k.last_used_at, 'date', i18n.language as 'en') })
            : t('zapier.card.never_used')}
        </Text>
      </div>
      <Button
        size="xs"
        color="red"
        variant="light"
        loading={revoke.isPending}
        data-testid="zapier-key-revoke"
        onClick={() =>
          modals.openConfirmModal({
            title: t('zapier.card.revoke'),
            children: <Text size="sm">{t('zapier.card.revoke_key_confirm')}</Text>,
            labels: { confirm: t('zapier.card.revoke'), cancel: t('common.cancel') },
            confirmProps: { color: 'red' },
            onConfirm: () => revoke.mutate(),
          })
        }
      >
        {t('zapier.card.revoke')}
      </Button>
    </Group>
  );
}

function ConnectionRow({ c }: { c: TZapierConnection }) {
  const { t, i18n } = useTranslation();
  const revoke = useMutation({
    mutationFn: () => api(`/v1/businesses/zapier/connections/${c.id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return (
    <Group justify="space-between" data-testid="zapier-connection-row">
      <div>
        <Text fw={500}>
          {t('zapier.card.connected_by', {
            user: c.user,
            date: formatDate(c.created_at, 'date', i18n.language as 'en'),
          })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('zapier.card.hooks', { count: c.hooks })}
        </Text>
      </div>
      <Button
        size="xs"
        color="red"
        variant="light"
        loading={revoke.isPending}
        data-testid="zapier-connection-revoke"
        onClick={() =>
          modals.openConfirmModal({
            title: t('zapier.card.revoke'),
            children: <Text size="sm">{t('zapier.card.revoke_connection_confirm')}</Text>,
            labels: { confirm: t('zapier.card.revoke'), cancel: t('common.cancel') },
            confirmProps: { color: 'red' },
            onConfirm: () => revoke.mutate(),
          })
        }
      >
        {t('zapier.card.revoke')}
      </Button>
    </Group>
  );
}

/** The Zapier card: its parts when the agency has Zapier on (a plan without it answers a key's creation). */
export function ZapierCard() {
  const { t } = useTranslation();
  const { user } = useAuth();
  if (!user?.subscriptions?.zapier)
    return (
      <FormSection title={t('zapier.card.title')} testId="zapier-card">
        <Alert color="gray">{t('zapier.card.not_available')}</Alert>
      </FormSection>
    );
  return <ZapierParts />;
}

function ZapierParts() {
  const { t } = useTranslation();
  const keys = useKeys();
  const connections = useConnections();
  return (
    <FormSection title={t('zapier.card.title')} hint={t('zapier.card.hint')} testId="zapier-card">
      <Title order={5}>{t('zapier.card.keys')}</Title>
      <NewKey />
      {keys.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('zapier.card.no_keys')}
        </Text>
      )}
      {keys.data?.map((k) => (
        <KeyRow key={k.id} k={k} />
      ))}
      <Title order={5}>{t('zapier.card.connections')}</Title>
      {connections.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('zapier.card.no_connections')}
        </Text>
      )}
      {connections.data?.map((c) => (
        <ConnectionRow key={c.id} c={c} />
      ))}
    </FormSection>
  );
}
