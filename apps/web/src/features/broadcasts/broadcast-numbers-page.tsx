import { Button, Group, NumberInput, Select, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { BROADCASTER_KINDS, BROADCASTER_RATES, type TBroadcasterKind } from '@stn/contracts/broadcasts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormSection } from '../../components/form/form-section.tsx';
import { askDelete } from '../../components/list/confirm.tsx';
import { EmptyRow } from '../../components/list/data-table.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import {
  useBroadcasters,
  useBusinessNumbers,
  useCreateBroadcaster,
  useDeleteBroadcaster,
  useUpdateBroadcaster,
} from './api/broadcasts.ts';

/**
 * business.setting.broadcast-numbers: the business's numbers chosen for broadcasts, each with its kind (the
 * pace it may text at: long code, toll-free, 10DLC by trust tier) or its own rate, on or off.
 */
export default function BroadcastNumbersPage() {
  const { t } = useTranslation();
  const broadcasters = useBroadcasters();
  const update = useUpdateBroadcaster();
  const remove = useDeleteBroadcaster();
  const kinds = BROADCASTER_KINDS.map((k) => ({
    value: k,
    label: t('business.broadcasts.numbers.kind_rate', {
      kind: t(`business.broadcasts.numbers.kinds.${k}`),
      rate: BROADCASTER_RATES[k],
    }),
  }));

  if (broadcasters.isError)
    return <LoadFailed message={broadcasters.error.message} testId="broadcasters-load-error" />;
  if (!broadcasters.data) return <Loading />;
  const rows = broadcasters.data;

  return (
    <Stack maw={980}>
      <Title order={2} data-testid="page-title">
        {t('business.broadcasts.numbers.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('business.broadcasts.numbers.hint')}
      </Text>
      <AddBroadcaster taken={rows.map((b) => b.number_id)} kinds={kinds} />
      <Table.ScrollContainer minWidth={760} type="native">
        <Table striped data-testid="broadcasters-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('business.broadcasts.numbers.number')}</Table.Th>
              <Table.Th>{t('business.broadcasts.numbers.kind')}</Table.Th>
              <Table.Th>{t('business.broadcasts.numbers.rate')}</Table.Th>
              <Table.Th>{t('business.common.active')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((b) => (
              <Table.Tr key={b.id} data-testid={`broadcaster-row-${b.id}`}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {b.phone_number}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {b.friendly_name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Select
                    size="xs"
                    data={kinds}
                    value={b.kind}
                    allowDeselect={false}
                    onChange={(k) => k && update.mutate({ id: b.id, kind: k as TBroadcasterKind })}
                    aria-label={t('business.broadcasts.numbers.kind')}
                    data-testid={`broadcaster-kind-${b.id}`}
                  />
                </Table.Td>
                <Table.Td>
                  <RateInput
                    key={`${b.id}-${b.custom_rate}`}
                    value={b.custom_rate}
                    placeholder={String(BROADCASTER_RATES[b.kind])}
                    onSave={(rate) => update.mutate({ id: b.id, custom_rate: rate })}
                    testId={`broadcaster-rate-${b.id}`}
                  />
                </Table.Td>
                <Table.Td>
                  <Switch
                    checked={b.active}
                    onChange={(e) => update.mutate({ id: b.id, active: e.currentTarget.checked })}
                    aria-label={t('business.common.active')}
                    data-testid={`broadcaster-active-${b.id}`}
                  />
                </Table.Td>
                <Table.Td>
                  <RowButtons
                    actions={[
                      {
                        label: t('business.common.delete'),
                        color: 'red',
                        testId: `broadcaster-delete-${b.id}`,
                        onClick: () =>
                          askDelete(
                            [
                              'business.broadcasts.numbers.delete_title',
                              'business.broadcasts.numbers.delete_confirm',
                              'business.common.delete',
                            ],
                            { number: b.phone_number },
                            () => remove.mutate(b.id),
                            'broadcaster-delete-ok',
                          ),
                      },
                    ]}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
            {rows.length === 0 && <EmptyRow colSpan={5} text={t('business.broadcasts.numbers.empty')} />}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** A broadcaster's own rate (messages a second), saved when the field is left; empty: the kind's. */
function RateInput(props: {
  value: number | null;
  placeholder: string;
  onSave: (rate: number | null) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string | number>(props.value ?? '');
  const commit = () => {
    const next = value === '' ? null : Number(value);
    if (next !== props.value) props.onSave(next);
  };
  return (
    <NumberInput
      size="xs"
      w={110}
      min={0.1}
      max={100}
      decimalScale={1}
      value={value}
      onChange={setValue}
      onBlur={commit}
      placeholder={props.placeholder}
      aria-label={t('business.broadcasts.numbers.custom_rate')}
      data-testid={props.testId}
    />
  );
}

/** Add a broadcaster: one of the business's SMS numbers not yet chosen, its kind, optionally its own rate. */
function AddBroadcaster(props: { taken: number[]; kinds: { value: string; label: string }[] }) {
  const { t } = useTranslation();
  const numbers = useBusinessNumbers();
  const create = useCreateBroadcaster();
  const [numberId, setNumberId] = useState<string | null>(null);
  const [kind, setKind] = useState<TBroadcasterKind>('long_code');
  const [rate, setRate] = useState<string | number>('');
  const [active, setActive] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const choices = (numbers.data ?? [])
    .filter((n) => !props.taken.includes(n.id))
    .map((n) => ({
      value: String(n.id),
      label: `${n.phone_number}${n.friendly_name ? ` (${n.friendly_name})` : ''}`,
    }));

  const add = () => {
    if (!numberId) {
      setErrors({ number_id: t('business.broadcasts.numbers.number_required') });
      return;
    }
    setErrors({});
    create.mutate(
      { number_id: Number(numberId), kind, custom_rate: rate === '' ? null : Number(rate), active },
      {
        onSuccess: () => {
          setNumberId(null);
          setRate('');
          setKind('long_code');
          setActive(true);
        },
        onError: (err) => {
          if (!(err instanceof ApiError)) return;
          const shown: Record<string, string> = {};
          for (const f of ['number_id', 'kind', 'custom_rate']) {
            const m = err.field(f);
            if (m) shown[f] = m;
          }
          setErrors(shown);
        },
      },
    );
  };

  return (
    <FormSection title={t('business.broadcasts.numbers.add')} testId="broadcaster-add">
      <Group align="flex-start">
        <Select
          label={t('business.broadcasts.numbers.number')}
          placeholder={t('business.broadcasts.numbers.pick_number')}
          data={choices}
          value={numberId}
          onChange={setNumberId}
          error={errors.number_id}
          nothingFoundMessage={t('business.broadcasts.numbers.no_numbers')}
          searchable
          w={260}
          data-testid="broadcaster-add-number"
        />
        <Select
          label={t('business.broadcasts.numbers.kind')}
          data={props.kinds}
          value={kind}
          onChange={(k) => k && setKind(k as TBroadcasterKind)}
          error={errors.kind}
          allowDeselect={false}
          w={240}
          data-testid="broadcaster-add-kind"
        />
        <NumberInput
          label={t('business.broadcasts.numbers.custom_rate')}
          description={t('business.broadcasts.numbers.custom_rate_hint')}
          min={0.1}
          max={100}
          decimalScale={1}
          value={rate}
          onChange={setRate}
          error={errors.custom_rate}
          placeholder={String(BROADCASTER_RATES[kind])}
          w={170}
          data-testid="broadcaster-add-rate"
        />
      </Group>
      <Group justify="space-between">
        <Switch
          label={t('business.common.active')}
          checked={active}
          onChange={(e) => setActive(e.currentTarget.checked)}
          data-testid="broadcaster-add-active"
        />
        <Button onClick={add} loading={create.isPending} data-testid="broadcaster-add-submit">
          {t('business.broadcasts.numbers.add_button')}
        </Button>
      </Group>
      {numbers.isSuccess && (numbers.data ?? []).length === 0 && (
        <Text size="sm" c="dimmed" data-testid="broadcaster-no-numbers">
          {t('business.broadcasts.numbers.no_numbers')}
        </Text>
      )}
    </FormSection>
  );
}
