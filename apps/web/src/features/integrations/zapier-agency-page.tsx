import { Alert, Anchor, Code, Group, List, Loader, Stack, Table, Text, Title } from '@mantine/core';
import type { TAgencyZapier } from '@stn/contracts/zapier';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CopyValueButton } from '../../components/copy-value-button.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { api } from '../../lib/api-client.ts';

// The agency's zapier screen (route agency.zapier, ADR 089): how its businesses connect (the invite
// link, the OAuth client id and addresses, the steps) and which of them have connected.

function Copyable({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid={testId} style={{ wordBreak: 'break-all' }}>
          {value}
        </Code>
        <CopyValueButton
          value={value}
          size="xs"
          copy={t('zapier.card.copy')}
          copied={t('zapier.card.copied')}
        />
      </Group>
    </div>
  );
}

export default function ZapierAgencyPage() {
  const { t } = useTranslation();
  const q = useQuery<TAgencyZapier>({
    queryKey: ['zapier', 'agency'],
    queryFn: async () => (await api<{ data: TAgencyZapier }>('/v1/agencies/zapier')).data,
  });
  const d = q.data;
  return (
    <Stack maw={860}>
      <Title order={2} data-testid="page-title">
        {t('zapier.agency.title')}
      </Title>
      <Text>{t('zapier.agency.intro')}</Text>
      {q.isPending ? (
        <Loader size="sm" />
      ) : !d ? null : (
        <>
          <FormSection title={t('zapier.agency.steps_title')} testId="zapier-steps">
            <List type="ordered" spacing="xs">
              <List.Item>{t('zapier.agency.step1')}</List.Item>
              <List.Item>{t('zapier.agency.step2')}</List.Item>
              <List.Item>{t('zapier.agency.step3')}</List.Item>
            </List>
            {d.invite_url ? (
              <div>
                <Text size="sm" fw={500}>
                  {t('zapier.agency.invite')}
                </Text>
                <Anchor
                  href={d.invite_url}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="zapier-invite"
                >
                  {d.invite_url}
                </Anchor>
              </div>
            ) : (
              <Alert color="gray" data-testid="zapier-no-invite">
                {t('zapier.agency.no_invite')}
              </Alert>
            )}
            <Copyable label={t('zapier.agency.client_id')} value={d.client_id} testId="zapier-client-id" />
            <Copyable
              label={t('zapier.agency.authorize_url')}
              value={d.authorize_url}
              testId="zapier-authorize-url"
            />
            <Copyable label={t('zapier.agency.token_url')} value={d.token_url} testId="zapier-token-url" />
            <Text size="sm" c="dimmed">
              {d.free ? t('zapier.agency.free') : t('zapier.agency.plan')}
            </Text>
          </FormSection>
          <FormSection title={t('zapier.agency.connected')} testId="zapier-connected">
            {d.businesses.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('zapier.agency.none')}
              </Text>
            ) : (
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('zapier.agency.business')}</Table.Th>
                    <Table.Th>{t('zapier.agency.connections')}</Table.Th>
                    <Table.Th>{t('zapier.agency.api_keys')}</Table.Th>
                    <Table.Th>{t('zapier.agency.hooks')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.businesses.map((b) => (
                    <Table.Tr key={b.id} data-testid="zapier-business-row">
                      <Table.Td>{b.name}</Table.Td>
                      <Table.Td>{b.connections}</Table.Td>
                      <Table.Td>{b.api_keys}</Table.Td>
                      <Table.Td>{b.hooks}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </FormSection>
        </>
      )}
    </Stack>
  );
}
