import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TEmailAccount } from '@stn/contracts/own-mail';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { MailAccountForm } from './mail-account-form.tsx';
import { agencyMailAccounts, mailKeys, useMailList } from './mail-api.ts';

// agency.integrations (ADR 090): the agency's own SMTP account, through which the mail the agency sends
// goes (its users' and its businesses' invitations and password resets, opt-in notices) instead of the
// platform's mail server.

export default function AgencyIntegrationsPage() {
  const { t } = useTranslation();
  const list = useMailList<TEmailAccount>('/v1/agencies/integartions', mailKeys.agency.all);
  const remove = agencyMailAccounts.useDelete();
  const [editing, setEditing] = useState<TEmailAccount | 'new' | null>(null);

  if (editing)
    return (
      <MailAccountForm
        key={editing === 'new' ? 'new' : editing.id}
        account={editing === 'new' ? null : editing}
        calls={agencyMailAccounts}
        title={editing === 'new' ? t('mailSettings.add_agency_account') : t('mailSettings.edit_account')}
        onCancel={() => setEditing(null)}
        onSaved={() => setEditing(null)}
      />
    );

  const confirmDelete = (a: TEmailAccount) =>
    modals.openConfirmModal({
      title: t('mailSettings.delete_account'),
      children: <Text size="sm">{t('mailSettings.delete_account_confirm', { email: a.from_email })}</Text>,
      labels: { confirm: t('mailSettings.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(a.id),
    });

  return (
    <Stack maw={760}>
      <Title order={2} data-testid="page-title">
        {t('mailSettings.agency_title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('mailSettings.agency_hint')}
      </Text>
      {list.isError ? (
        <LoadFailed message={list.error.message} testId="agency-mail-load-error" />
      ) : !list.data ? (
        <Loading />
      ) : list.data.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Text data-testid="agency-mail-empty">{t('mailSettings.agency_none')}</Text>
        </Paper>
      ) : (
        list.data.map((a) => (
          <Paper key={a.id} withBorder p="md" radius="md" data-testid="agency-mail-account">
            <Group justify="space-between">
              <div>
                <Text fw={500}>
                  {a.from_name ? `${a.from_name} <${a.from_email}>` : a.from_email}{' '}
                  {a.is_default && <Badge size="sm">{t('mailSettings.default')}</Badge>}
                </Text>
                <Text size="sm" c="dimmed">
                  {a.host}:{a.port} · {t(`mailSettings.security_${a.security}`)}
                </Text>
              </div>
              <Group gap="xs">
                <Button size="xs" variant="light" onClick={() => setEditing(a)}>
                  {t('mailSettings.edit')}
                </Button>
                <Button size="xs" variant="light" color="red" onClick={() => confirmDelete(a)}>
                  {t('mailSettings.delete')}
                </Button>
              </Group>
            </Group>
          </Paper>
        ))
      )}
      <Group>
        <Button onClick={() => setEditing('new')} data-testid="agency-mail-add">
          {t('mailSettings.add_account')}
        </Button>
      </Group>
    </Stack>
  );
}
