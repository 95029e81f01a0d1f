import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/load-state.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useInvoices } from '../api/subscriptions.ts';
import { formatMoney } from '../money.ts';

const STATUS_COLOR: Record<string, string> = {
  paid: 'green',
  open: 'orange',
  uncollectible: 'red',
  void: 'gray',
};

/** The account's invoices, newest first, each with Stripe's page when it has one. */
export function InvoiceTable() {
  const { t, i18n } = useTranslation();
  const invoices = useInvoices();
  return (
    <Stack gap="xs">
      <Title order={3}>{t('billing.invoices.title')}</Title>
      {invoices.isPending ? (
        <Loading />
      ) : !invoices.data?.length ? (
        <Text c="dimmed" data-testid="invoices-empty">
          {invoices.isError ? t('common.load_failed') : t('billing.invoices.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table data-testid="invoice-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('billing.invoices.date')}</Table.Th>
                <Table.Th>{t('billing.invoices.number')}</Table.Th>
                <Table.Th>{t('billing.invoices.amount')}</Table.Th>
                <Table.Th>{t('billing.invoices.status')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoices.data.map((inv) => (
                <Table.Tr key={inv.id} data-testid="invoice-row">
                  <Table.Td>{formatDate(inv.created)}</Table.Td>
                  <Table.Td>{inv.number ?? '—'}</Table.Td>
                  <Table.Td>
                    {formatMoney(
                      inv.status === 'paid' ? inv.amount_paid_cents : inv.amount_due_cents,
                      inv.currency,
                      i18n.language,
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOR[inv.status] ?? 'gray'}>
                      {t(`billing.invoices.statuses.${inv.status}`, { defaultValue: inv.status })}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {inv.hosted_invoice_url && (
                      <Anchor href={inv.hosted_invoice_url} target="_blank" rel="noopener noreferrer">
                        {t('billing.invoices.view')}
                      </Anchor>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
