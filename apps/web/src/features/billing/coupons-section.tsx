import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Input,
  Modal,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { type TCoupon, type TCouponRequest, ZCouponRequest } from '@stn/contracts/subscriptions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BoundForm, NumberField, PriceField, SelectField, TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { confirmAction } from '../../components/list/confirm.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { useCoupons, useCreateCoupon, useEndCoupon } from './api/coupons.ts';
import { centsOf, formatCents, renameField } from './money.ts';

// An agency's coupon codes (ADR 076), made on its own Stripe account: an agency on the Stripe sandbox has
// no Stripe dashboard to make them in. Shown on its Plans screen; a business types a code at checkout.

const DURATIONS = ['once', 'repeating', 'forever'] as const;
type Duration = (typeof DURATIONS)[number];
type Kind = 'percent' | 'amount';

type Values = {
  code: string;
  name: string;
  kind: Kind;
  percent_off: number | string;
  /** Dollars; the request carries amount_off_cents. */
  amount_off: number | string;
  duration: Duration;
  duration_in_months: number | string;
};

const INITIAL: Values = {
  code: '',
  name: '',
  kind: 'percent',
  percent_off: '',
  amount_off: '',
  duration: 'once',
  duration_in_months: '',
};

const num = (v: number | string) => (v === '' ? undefined : Number(v));

/** The request: only the chosen kind of discount, the months only when repeating, no empty name. */
function requestOf(v: Values) {
  const name = v.name.trim();
  return {
    code: v.code.trim(),
    ...(name ? { name } : {}),
    ...(v.kind === 'percent'
      ? { percent_off: num(v.percent_off) }
      : { amount_off_cents: centsOf(v.amount_off) ?? undefined }),
    duration: v.duration,
    ...(v.duration === 'repeating' ? { duration_in_months: num(v.duration_in_months) } : {}),
  };
}

const resolve = zodResolver(ZCouponRequest);

/** The schema's errors at the form's fields: a missing amount off is said at the amount, not the percent. */
function validate(v: Values) {
  const errors = renameField(resolve(requestOf(v)), 'amount_off_cents', 'amount_off');
  return v.kind === 'amount' ? renameField(errors, 'percent_off', 'amount_off') : errors;
}

const FIELDS = ['code', 'name', 'percent_off', 'amount_off_cents', 'duration', 'duration_in_months'];

/** "20%" or "$10.00". */
export function couponDiscount(c: TCoupon, locale: string): string {
  if (c.percent_off !== null)
    return `${new Intl.NumberFormat(locale === 'br' ? 'pt-BR' : locale, { maximumFractionDigits: 2 }).format(c.percent_off)}%`;
  return c.amount_off_cents !== null ? formatCents(c.amount_off_cents, locale) : '';
}

/** The agency's coupon codes: a table, "Add coupon" (a modal form), and "Switch off" on an active one. */
export function CouponsSection() {
  const { t } = useTranslation();
  const user = useAuth().user;
  const agencyId = user?.agency?.id ?? 0;
  const canSell = user?.agency_has_stripe_config === true;
  const coupons = useCoupons(agencyId);
  const [adding, setAdding] = useState(false);

  return (
    <Paper withBorder p="md" radius="md" data-testid="coupons">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={3}>{t('billing.coupons.title')}</Title>
            <Text size="sm" c="dimmed">
              {t('billing.coupons.intro')}
            </Text>
          </div>
          {canSell && (
            <Button onClick={() => setAdding(true)} data-testid="coupon-add">
              {t('billing.coupons.add')}
            </Button>
          )}
        </Group>
        {!canSell && (
          <Alert color="blue" variant="light" data-testid="coupons-no-payments">
            <Text size="sm">{t('billing.coupons.no_payments')}</Text>
            <Anchor
              component={Link}
              to={pathOf('agency.settings')}
              size="sm"
              data-testid="coupons-settings-link"
            >
              {t('billing.coupons.settings_link')}
            </Anchor>
          </Alert>
        )}
        {coupons.isPending ? (
          <Loading />
        ) : coupons.data ? (
          <CouponTable agencyId={agencyId} coupons={coupons.data} />
        ) : (
          <LoadFailed message={coupons.error?.message} />
        )}
      </Stack>
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('billing.coupons.add')}>
        {adding && <CouponForm agencyId={agencyId} onDone={() => setAdding(false)} />}
      </Modal>
    </Paper>
  );
}

function CouponTable({ agencyId, coupons }: { agencyId: number; coupons: TCoupon[] }) {
  const { t, i18n } = useTranslation();
  const end = useEndCoupon(agencyId);
  if (coupons.length === 0)
    return (
      <Text c="dimmed" size="sm" data-testid="coupons-empty">
        {t('billing.coupons.empty')}
      </Text>
    );
  const askOff = (c: TCoupon) =>
    confirmAction({
      title: t('billing.coupons.switch_off_title', { code: c.code }),
      text: t('billing.coupons.switch_off_text'),
      confirm: t('billing.coupons.switch_off'),
      onConfirm: () => end.mutate(c.code),
      testId: 'coupon-off-ok',
    });
  const duration = (c: TCoupon) =>
    c.duration === 'repeating'
      ? t('billing.coupons.months_count', { count: c.duration_in_months ?? 0 })
      : t(`billing.coupons.durations.${c.duration}`);
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="sm" data-testid="coupon-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('billing.coupons.code')}</Table.Th>
            <Table.Th>{t('billing.coupons.discount')}</Table.Th>
            <Table.Th>{t('billing.coupons.duration')}</Table.Th>
            <Table.Th>{t('billing.coupons.used')}</Table.Th>
            <Table.Th>{t('billing.coupons.state')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {coupons.map((c) => (
            <Table.Tr key={c.code} data-testid={`coupon-row-${c.code}`} data-active={c.active}>
              <Table.Td>
                <Text fw={500}>{c.code}</Text>
                {c.name && (
                  <Text size="xs" c="dimmed">
                    {c.name}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{couponDiscount(c, i18n.language)}</Table.Td>
              <Table.Td>{duration(c)}</Table.Td>
              <Table.Td>{c.times_redeemed}</Table.Td>
              <Table.Td>
                <Badge
                  color={c.active ? 'green' : 'gray'}
                  variant="light"
                  data-testid={`coupon-state-${c.code}`}
                >
                  {c.active ? t('billing.coupons.active') : t('billing.coupons.off')}
                </Badge>
              </Table.Td>
              <Table.Td>
                {c.active && (
                  <Group justify="flex-end">
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      loading={end.isPending && end.variables === c.code}
                      onClick={() => askOff(c)}
                      data-testid={`coupon-off-${c.code}`}
                    >
                      {t('billing.coupons.switch_off')}
                    </Button>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function CouponForm({ agencyId, onDone }: { agencyId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useCreateCoupon(agencyId);
  const { form, submit } = useApiForm<Values>({
    initialValues: INITIAL,
    validate,
    fields: FIELDS,
    rename: { amount_off_cents: 'amount_off' },
    onSubmit: (v) => save.mutateAsync(requestOf(v) as TCouponRequest),
    onSuccess: onDone,
  });
  const kinds = (['percent', 'amount'] as const).map((value) => ({
    value,
    label: t(`billing.coupons.kind.${value}`),
  }));
  const durations = DURATIONS.map((value) => ({ value, label: t(`billing.coupons.durations.${value}`) }));
  const setKind = (kind: string) => {
    form.setFieldValue('kind', kind as Kind);
    form.clearFieldError('percent_off');
    form.clearFieldError('amount_off');
  };

  return (
    <BoundForm form={form} onSubmit={submit}>
      <Stack>
        <TextField
          name="code"
          label={t('billing.coupons.code')}
          description={t('billing.coupons.code_hint')}
          required
          maxLength={40}
          autoComplete="off"
          data-autofocus
          testId="coupon-code"
        />
        <TextField
          name="name"
          label={t('billing.coupons.name')}
          description={t('billing.coupons.name_hint')}
          maxLength={40}
          testId="coupon-name"
        />
        <Input.Wrapper label={t('billing.coupons.discount')} required>
          <SegmentedControl
            fullWidth
            data={kinds}
            value={form.values.kind}
            onChange={setKind}
            data-testid="coupon-kind"
          />
        </Input.Wrapper>
        {form.values.kind === 'percent' ? (
          <NumberField
            key="percent"
            name="percent_off"
            label={t('billing.coupons.percent_off')}
            suffix="%"
            min={1}
            max={100}
            decimalScale={2}
            required
            testId="coupon-percent"
          />
        ) : (
          <PriceField
            key="amount"
            name="amount_off"
            label={t('billing.coupons.amount_off')}
            required
            testId="coupon-amount"
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <SelectField
            name="duration"
            label={t('billing.coupons.duration')}
            data={durations}
            allowDeselect={false}
            required
            testId="coupon-duration"
          />
          {form.values.duration === 'repeating' && (
            <NumberField
              name="duration_in_months"
              label={t('billing.coupons.months')}
              min={1}
              max={36}
              allowDecimal={false}
              required
              testId="coupon-months"
            />
          )}
        </SimpleGrid>
        <FormActions submitting={save.isPending} submitTestId="coupon-save" onCancel={onDone} />
      </Stack>
    </BoundForm>
  );
}
