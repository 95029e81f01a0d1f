import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TEmailAccount, TMailIntegration, TMailIntegrationType } from '@stn/contracts/own-mail';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormSection } from '../../components/form/form-section.tsx';
import { api } from '../../lib/api-client.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { queryClient } from '../../lib/query-client.ts';

// The "E-mail" card of the business settings (ADR 090): the business's SMTP accounts and its SendGrid
// integration, links to their screens (features/integrations/mail-*.tsx, the same query keys), delete, and
// the last mail sent through them with its status. Its calls are its own: a feature imports no other.

type Data<T> = { success: true; data: T };
type OwnMail = {
  id: number;
  to: string;
  subject: string;
  status: 'queued' | 'sent' | 'failed';
  error: string | null;
  via: 'smtp' | 'sendgrid';
  created_at: string;
};

const ACCOUNTS = ['email-accounts'] as const;
const INTEGRATIONS = ['business-integrations'] as const;

function useList<T>(path: string, key: readonly unknown[], enabled = true) {
  return useQuery({
    queryKey: key,
    enabled,
    queryFn: async () => (await api<Data<T[]>>(path, { silent: true })).data,
  });
}

function useRemove(base: string, key: readonly unknown[]) {
  return useMutation({
    mutationFn: (id: number) => api(`${base}/${id}`, { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
}

/**
 * The E-mail card. `smtpOnly`: the SMTP accounts alone, for AdminSupport, whose settings item covers the smtp
 * screens but not the business's keyed integrations (spec 000 §6).
 */
export function MailCard({ smtpOnly = false }: { smtpOnly?: boolean }) {
  const { t } = useTranslation();
  const accounts = useList<TEmailAccount>('/v1/email-accounts', ACCOUNTS);
  const integrations = useList<TMailIntegration>('/v1/businesses/integrations', INTEGRATIONS, !smtpOnly);
  const types = useList<TMailIntegrationType>(
    '/v1/businesses/integrations/types',
    [...INTEGRATIONS, 'types'],
    !smtpOnly,
  );
  const recent = useList<OwnMail>('/v1/own-mail', ['own-mail']);
  const removeAccount = useRemove('/v1/email-accounts', ACCOUNTS);
  const removeIntegration = useRemove('/v1/businesses/integrations', INTEGRATIONS);
  const sendgridAvailable = types.data?.find((x) => x.type === 'sendgrid')?.available ?? false;

  const confirm = (label: string, onConfirm: () => void) =>
    modals.openConfirmModal({
      title: t('mailSettings.delete'),
      children: <Text size="sm">{t('mailSettings.delete_confirm', { name: label })}</Text>,
      labels: { confirm: t('mailSettings.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm,
    });

  const none = accounts.data?.length === 0 && (smtpOnly || integrations.data?.length === 0);
  return (
    <FormSection title={t('mailSettings.card_title')} hint={t('mailSettings.card_hint')}>
      <Stack gap="xs" data-testid="mail-card">
        {none && (
          <Text size="sm" c="dimmed" data-testid="mail-card-none">
            {t('mailSettings.none')}
          </Text>
        )}
        {accounts.data?.map((a) => (
          <Group key={`a${a.id}`} justify="space-between" data-testid="mail-card-account">
            <div>
              <Text size="sm" fw={500}>
                {a.name || a.from_email}{' '}
                {a.is_default && (
                  <Badge size="xs" ml={4}>
                    {t('mailSettings.default')}
                  </Badge>
                )}
              </Text>
              <Text size="xs" c="dimmed">
                {a.from_email} · {a.host}:{a.port}
              </Text>
            </div>
            <Group gap="xs">
              <Button
                size="xs"
                variant="light"
                component={Link}
                to={pathOf('business.setting.smtp.edit', { id: a.id })}
              >
                {t('mailSettings.edit')}
              </Button>
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => confirm(a.from_email, () => removeAccount.mutate(a.id))}
              >
                {t('mailSettings.delete')}
              </Button>
            </Group>
          </Group>
        ))}
        {integrations.data?.map((i) => (
          <Group key={`i${i.id}`} justify="space-between" data-testid="mail-card-integration">
            <div>
              <Text size="sm" fw={500}>
                SendGrid{' '}
                {!i.active && (
                  <Badge size="xs" color="gray" ml={4}>
                    {t('mailSettings.inactive')}
                  </Badge>
                )}
              </Text>
              <Text size="xs" c="dimmed">
                {i.from_email}
              </Text>
            </div>
            <Group gap="xs">
              <Button
                size="xs"
                variant="light"
                component={Link}
                to={pathOf('business.setting.integration.edit', { id: i.id })}
              >
                {t('mailSettings.edit')}
              </Button>
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => confirm('SendGrid', () => removeIntegration.mutate(i.id))}
              >
                {t('mailSettings.delete')}
              </Button>
            </Group>
          </Group>
        ))}
        <Group gap="xs">
          <Button
            size="xs"
            component={Link}
            to={pathOf('business.setting.smtp.create')}
            data-testid="mail-card-add-smtp"
          >
            {t('mailSettings.add_account')}
          </Button>
          {sendgridAvailable && integrations.data?.length === 0 && (
            <Button
              size="xs"
              variant="default"
              component={Link}
              to={pathOf('business.setting.integration.create')}
              data-testid="mail-card-add-sendgrid"
            >
              {t('mailSettings.add_sendgrid')}
            </Button>
          )}
        </Group>
        {recent.data && recent.data.length > 0 && (
          <Table fz="xs" mt="sm" data-testid="mail-card-recent">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('mailSettings.recent_to')}</Table.Th>
                <Table.Th>{t('mailSettings.recent_subject')}</Table.Th>
                <Table.Th>{t('mailSettings.recent_status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {recent.data.slice(0, 5).map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td>{m.to}</Table.Td>
                  <Table.Td>{m.subject}</Table.Td>
                  <Table.Td title={m.error ?? undefined}>{t(`mailSettings.status_${m.status}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </FormSection>
  );
}
