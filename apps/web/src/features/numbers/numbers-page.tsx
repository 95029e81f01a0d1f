import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { TAvailableNumber, TNumber } from '@stn/contracts/telephony';
import { ZNumberCreate } from '@stn/contracts/telephony';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { confirmAction } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { PhoneField } from '../../components/phone-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { keys } from '../../lib/query-keys.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import {
  NUMBERS_PATH,
  useCreateNumber,
  useInstallPicks,
  usePurchaseNumber,
  useReleaseNumber,
  useSearchNumbers,
} from './api/numbers.ts';

// The business's numbers (spec 000 "numbers"): bought numbers with their install, landlines and caller
// ids with their verification. "Buy a number" searches the agency's carrier by area code and buys one for
// an install; "Add a caller id" keeps a number and opens its verification.

const COUNTRIES = ['US', 'CA', 'GB', 'AU'];

export default function NumbersPage() {
  const { t } = useTranslation();
  const release = useReleaseNumber();
  const [buying, setBuying] = useState(false);
  const [adding, setAdding] = useState(false);
  // Buying a number is an install call too (installs.use): a custom type with the numbers page only
  // manages its caller ids.
  const mayBuy = userCan(useAuth().user, 'installs.use');

  const confirmRelease = (n: TNumber) =>
    confirmAction({
      title: t('numbers_ui.release_title'),
      text: t(n.kind === 'purchased' ? 'numbers_ui.release_confirm' : 'numbers_ui.remove_confirm', {
        phone: n.phone_number,
      }),
      confirm: t('numbers_ui.release'),
      onConfirm: () => release.mutate(n.id),
      testId: 'number-release-confirm',
    });

  const columns: Column<TNumber>[] = [
    { key: 'phone', title: t('numbers_ui.phone'), render: (n) => n.phone_number },
    { key: 'name', title: t('numbers_ui.friendly_name'), render: (n) => n.friendly_name },
    { key: 'kind', title: t('numbers_ui.kind'), render: (n) => t(`numbers_ui.kinds.${n.kind}`) },
    { key: 'install', title: t('numbers_ui.install'), render: (n) => n.install_name ?? '—' },
    {
      key: 'verified',
      title: t('numbers_ui.status'),
      render: (n) => (
        <Badge color={n.verified ? 'green' : 'orange'} variant="light" data-testid={`number-status-${n.id}`}>
          {t(n.verified ? 'numbers_ui.verified' : 'numbers_ui.unverified')}
        </Badge>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('menu.numbers')}
        </Title>
        <Group>
          <Button variant="light" onClick={() => setAdding(true)} data-testid="number-add-caller-id">
            {t('numbers_ui.add_caller_id')}
          </Button>
          {mayBuy && (
            <Button onClick={() => setBuying(true)} data-testid="number-buy">
              {t('numbers_ui.buy')}
            </Button>
          )}
        </Group>
      </Group>
      <DataTable<TNumber>
        path={NUMBERS_PATH}
        queryKey={keys.numbers.list()}
        columns={columns}
        testId="numbers-table"
        actions={(n) => (
          <RowButtons
            actions={[
              {
                label: t('numbers_ui.verify'),
                to: pathOf('business.numbers.verification', { id: n.id }),
                hidden: n.verified,
                testId: `number-verify-${n.id}`,
              },
              {
                label: t('numbers_ui.edit'),
                to: pathOf('business.numbers.edit', { id: n.id }),
                testId: `number-edit-${n.id}`,
              },
              {
                label: t('numbers_ui.release'),
                onClick: () => confirmRelease(n),
                color: 'red',
                testId: `number-release-${n.id}`,
              },
            ]}
          />
        )}
      />
      <BuyNumberDialog opened={buying} onClose={() => setBuying(false)} />
      <AddCallerIdDialog opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}

/** A number's monthly price in the carrier's currency ("$1.15"), or null when the carrier did not say. */
function priceOf(n: TAvailableNumber, language: string): string | null {
  if (n.monthly_price === null || !n.price_unit) return null;
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency: n.price_unit }).format(
      Number(n.monthly_price),
    );
  } catch {
    return `${n.monthly_price} ${n.price_unit}`;
  }
}

/** Pick an install, search the carrier by country and area code, buy one of the numbers offered. */
function BuyNumberDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const installs = useInstallPicks();
  const search = useSearchNumbers();
  const purchase = usePurchaseNumber();
  const [installId, setInstallId] = useState<string | null>(null);
  const [country, setCountry] = useState('US');
  const [areaCode, setAreaCode] = useState<number | string>('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    search.reset();
    setError(null);
    onClose();
  };
  const runSearch = async () => {
    setError(null);
    try {
      await search.mutateAsync({ country, ...(areaCode !== '' ? { area_code: Number(areaCode) } : {}) });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };
  const buy = async (n: TAvailableNumber) => {
    if (!installId) {
      setError(t('numbers_ui.pick_install'));
      return;
    }
    setError(null);
    const price = priceOf(n, i18n.language);
    // A number is paid for every month until it is released: its price is said and confirmed first.
    const confirmed = await new Promise<boolean>((resolve) =>
      confirmAction({
        title: t('numbers_ui.buy_confirm_title'),
        text: price
          ? t('numbers_ui.buy_confirm_priced', { number: n.friendly_name || n.phone_number, price })
          : t('numbers_ui.buy_confirm_unpriced', { number: n.friendly_name || n.phone_number }),
        confirm: price ? t('numbers_ui.buy_confirm_ok', { price }) : t('numbers_ui.buy_this'),
        color: 'blue',
        testId: 'buy-confirm',
        onConfirm: () => resolve(true),
        onCancel: () => resolve(false),
      }),
    );
    if (!confirmed) return;
    try {
      await purchase.mutateAsync({ installId: Number(installId), phone_number: n.phone_number });
      close();
    } catch (err) {
      setError(err instanceof ApiError ? (err.field('phone_number') ?? err.message) : String(err));
    }
  };
  const options = (installs.data ?? []).map((i) => ({
    value: String(i.id),
    label: i.number ? `${i.name} (${i.number})` : i.name,
  }));

  return (
    <Modal opened={opened} onClose={close} title={t('numbers_ui.buy')} size="lg">
      <Stack>
        <Select
          label={t('numbers_ui.install')}
          placeholder={t('numbers_ui.pick_install')}
          data={options}
          value={installId}
          onChange={setInstallId}
          nothingFoundMessage={t('numbers_ui.no_installs')}
          data-testid="buy-install"
          required
        />
        <Group align="flex-end">
          <Select
            label={t('numbers_ui.country')}
            data={COUNTRIES}
            value={country}
            onChange={(v) => setCountry(v ?? 'US')}
            allowDeselect={false}
            w={100}
            data-testid="buy-country"
          />
          <NumberInput
            label={t('numbers_ui.area_code')}
            value={areaCode}
            onChange={setAreaCode}
            min={100}
            max={999}
            hideControls
            w={140}
            data-testid="buy-area-code"
          />
          <Button onClick={() => void runSearch()} loading={search.isPending} data-testid="buy-search">
            {t('common.search')}
          </Button>
        </Group>
        {error && (
          <Alert color="red" data-testid="buy-error">
            {error}
          </Alert>
        )}
        {search.data && search.data.length === 0 && <Text c="dimmed">{t('numbers_ui.none_found')}</Text>}
        {search.data && search.data.length > 0 && (
          <Table data-testid="buy-results">
            <Table.Tbody>
              {search.data.map((n) => (
                <Table.Tr key={n.phone_number}>
                  <Table.Td>{n.friendly_name || n.phone_number}</Table.Td>
                  <Table.Td>{[n.locality, n.region].filter(Boolean).join(', ')}</Table.Td>
                  <Table.Td data-testid={`price-${n.phone_number}`}>
                    {priceOf(n, i18n.language)
                      ? t('numbers_ui.per_month', { price: priceOf(n, i18n.language) })
                      : t('numbers_ui.price_unknown')}
                  </Table.Td>
                  <Table.Td align="right">
                    <Button
                      size="xs"
                      onClick={() => void buy(n)}
                      loading={purchase.isPending && purchase.variables?.phone_number === n.phone_number}
                      data-testid={`buy-${n.phone_number}`}
                    >
                      {t('numbers_ui.buy_this')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Modal>
  );
}

const resolveCreate = zodResolver(ZNumberCreate);

/** Keep one of the business's own numbers (a caller id or a landline), then verify it. */
function AddCallerIdDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateNumber();
  const [phone, setPhone] = useState('');
  const [kind, setKind] = useState<'caller_id' | 'landline'>('caller_id');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const errors = resolveCreate({ phone_number: phone, kind });
    if (errors.phone_number) {
      setError(errors.phone_number);
      return;
    }
    try {
      const res = await create.mutateAsync({ phone_number: phone, kind });
      onClose();
      setPhone('');
      navigate(pathOf('business.numbers.verification', { id: res.data.id }));
    } catch (err) {
      setError(err instanceof ApiError ? (err.field('phone_number') ?? err.message) : String(err));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('numbers_ui.add_caller_id')}>
      <Stack>
        <SegmentedControl
          value={kind}
          onChange={(v) => setKind(v as 'caller_id' | 'landline')}
          data={[
            { value: 'caller_id', label: t('numbers_ui.kinds.caller_id') },
            { value: 'landline', label: t('numbers_ui.kinds.landline') },
          ]}
        />
        <PhoneField
          label={t('numbers_ui.phone')}
          value={phone}
          onChange={(v) => {
            setPhone(v);
            setError(null);
          }}
          error={error ?? undefined}
          required
          data-testid="caller-id-phone"
        />
        <Text size="sm" c="dimmed">
          {t('numbers_ui.add_hint')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void submit()} loading={create.isPending} data-testid="caller-id-submit">
            {t('numbers_ui.add_and_verify')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
