import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  PasswordInput,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { INDUSTRIES, INDUSTRY_IDS, type TOrderBump } from '@stn/contracts/orders';
import type { TCouponInfo, TPlanOffer } from '@stn/contracts/subscriptions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CardEntry } from '../../components/card-form.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { auth } from '../../lib/auth-store.ts';
import { buyOrderBump, couponInfo, host, type OrderKind, register } from './api.ts';

// The order form of spec 000 §2 (labels: email, password, confirm password, full name, company name, phone
// number, domain, white-label subdomain, industry, how many businesses, goals in 12 months, how many
// people, how many contacts, departments) for an agency; the short form for a business. A plan picker (or
// the product's plan), a coupon, the order bumps, the card. Nothing typed is lost on an error: the fields
// keep their values and the server's messages show beside them (the card's above the button).

const AGENCY_FIELDS = [
  'email',
  'password',
  'password_confirmation',
  'full_name',
  'company_name',
  'phone',
  'domain',
  'subdomain',
  'industry',
  'businesses_count',
  'goals',
  'people_count',
  'contacts_count',
  'departments',
] as const;
const BUSINESS_FIELDS = [
  'email',
  'password',
  'password_confirmation',
  'full_name',
  'business_name',
  'phone',
] as const;
type Field = (typeof AGENCY_FIELDS)[number] | 'business_name';

const money = (cents: number, lang: string) =>
  new Intl.NumberFormat(lang === 'br' ? 'pt-BR' : lang, { style: 'currency', currency: 'USD' }).format(
    cents / 100,
  );

export function OrderForm(props: {
  kind: OrderKind;
  plans: TPlanOffer[];
  orderBumps: TOrderBump[];
  trial?: boolean;
  slug?: string;
  thankYou: string;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const fields: readonly Field[] = props.kind === 'agency' ? AGENCY_FIELDS : BUSINESS_FIELDS;
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f, f === 'industry' ? '1' : ''])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [planId, setPlanId] = useState<number | null>(props.plans[0]?.id ?? null);
  const [bumps, setBumps] = useState<number[]>([]);
  const [coupon, setCoupon] = useState('');
  const [discount, setDiscount] = useState<TCouponInfo | null>(null);
  const [couponError, setCouponError] = useState<string | null>(null);
  const [payError, setPayError] = useState<string | null>(null);
  const [_busy, _setBusy] = useState(false);
  const plan = props.plans.find((p) => p.id === planId) ?? null;

  const set = (name: string) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((er) => ({ ...er, [name]: '' }));
  };
  const label = (f: Field) => t(`orderPages.fields.${f}`);
  const text = (f: Field, extra: Record<string, unknown> = {}) => (
    <TextInput
      key={f}
      label={label(f)}
      value={values[f] ?? ''}
      onChange={set(f)}
      error={errors[f] || undefined}
      data-testid={`order-${f}`}
      {...extra}
    />
  );

  const applyCoupon = async () => {
    setCouponError(null);
    setDiscount(null);
    if (!coupon.trim()) return;
    try {
      setDiscount(await couponInfo(coupon.trim(), planId));
    } catch (err) {
      setCouponError(
        err instanceof ApiError ? (err.body?.message ?? err.message) : t('orderPages.coupon_invalid'),
      );
    }
  };

  /**
   * The order, once the card form has set the card up: the account is made and subscribed with it. A 422
   * marks its fields and says so in the card form (which keeps the card typed); the page keeps every field.
   */
  const placeOrder = async (paymentMethod: string) => {
    setPayError(null);
    if (!planId) throw new Error(t('orderPages.choose_plan'));
    const body: Record<string, unknown> = { ...values, plan_id: planId, paymentMethod };
    if (props.kind === 'agency') {
      body.industry = Number(values.industry);
      body.trial = props.trial ?? false;
    }
    if (discount) body.coupon = discount.code;
    try {
      const res = await register(props.kind, body, props.slug);
      auth.signIn(res.access_token, res.role_group);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'VALIDATION') {
        const next: Record<string, string> = {};
        for (const name of Object.keys(err.body?.errors ?? {})) next[name] = err.field(name) ?? '';
        setErrors(next);
        const shown = Object.keys(next).some((n) => (fields as readonly string[]).includes(n));
        throw new Error(shown ? t('orderPages.fix_fields') : (err.body?.message ?? err.message));
      }
      throw err;
    }
    for (const id of bumps) await buyOrderBump(id).catch(() => undefined);
    navigate(props.thankYou, { replace: true });
  };

  const price = plan ? (discount?.discounted_cents ?? plan.price_cents) : null;

  return (
    <div data-testid="order-form">
      <Stack maw={720} mx="auto">
        <Title order={2}>{props.trial ? t('orderPages.trial_title') : t('orderPages.title')}</Title>
        <Paper withBorder p="md">
          <Stack>
            <Title order={4}>{t('orderPages.plan')}</Title>
            {props.plans.length === 0 && <Text c="dimmed">{t('orderPages.no_plans')}</Text>}
            <Radio.Group value={planId ? String(planId) : ''} onChange={(v) => setPlanId(Number(v))}>
              <Stack gap="xs">
                {props.plans.map((p) => (
                  <Radio
                    key={p.id}
                    value={String(p.id)}
                    data-testid={`order-plan-${p.id}`}
                    label={`${p.name} — ${money(p.price_cents, i18n.language)} / ${t(`orderPages.per_${p.interval}`)}`}
                  />
                ))}
              </Stack>
            </Radio.Group>
            {errors.plan_id && (
              <Text c="red" size="sm">
                {errors.plan_id}
              </Text>
            )}
          </Stack>
        </Paper>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {text('email', { type: 'email', autoComplete: 'email', required: true })}
          {text('full_name', { required: true })}
          <PasswordInput
            label={label('password')}
            value={values.password ?? ''}
            onChange={set('password')}
            error={errors.password || undefined}
            required
            data-testid="order-password"
          />
          <PasswordInput
            label={label('password_confirmation')}
            value={values.password_confirmation ?? ''}
            onChange={set('password_confirmation')}
            error={errors.password_confirmation || undefined}
            required
            data-testid="order-password_confirmation"
          />
          {props.kind === 'agency'
            ? text('company_name', { required: true })
            : text('business_name', { required: true })}
          {text('phone', { type: 'tel', required: true })}
          {props.kind === 'agency' && (
            <>
              {text('domain', { placeholder: 'calls.example.com' })}
              {text('subdomain', { required: true })}
              <NativeSelect
                label={label('industry')}
                value={values.industry}
                onChange={set('industry')}
                error={errors.industry || undefined}
                data={INDUSTRY_IDS.map((id) => ({ value: String(id), label: INDUSTRIES[id] }))}
                data-testid="order-industry"
              />
              {text('businesses_count', { inputMode: 'numeric' })}
              {text('goals')}
              {text('people_count', { inputMode: 'numeric' })}
              {text('contacts_count', { inputMode: 'numeric' })}
              {text('departments')}
            </>
          )}
        </SimpleGrid>
        <Group align="flex-end">
          <TextInput
            label={t('orderPages.coupon')}
            value={coupon}
            onChange={(e) => setCoupon(e.currentTarget.value)}
            error={couponError || errors.coupon || undefined}
            data-testid="order-coupon"
          />
          <Button variant="default" onClick={applyCoupon} data-testid="order-coupon-apply">
            {t('orderPages.apply')}
          </Button>
        </Group>
        {discount && plan && (
          <Text data-testid="order-discount">
            {t('orderPages.discounted', {
              price: money(price ?? 0, i18n.language),
              was: money(plan.price_cents, i18n.language),
            })}
          </Text>
        )}
        {props.orderBumps.length > 0 && (
          <Paper withBorder p="md">
            <Stack gap="xs">
              <Title order={5}>{t('orderPages.order_bumps')}</Title>
              {props.orderBumps.map((b) => (
                <Checkbox
                  key={b.id}
                  checked={bumps.includes(b.id)}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    setBumps((list) => (on ? [...list, b.id] : list.filter((x) => x !== b.id)));
                  }}
                  label={`${b.name} — ${money(b.price_cents, i18n.language)}`}
                  data-testid={`order-bump-${b.id}`}
                />
              ))}
            </Stack>
          </Paper>
        )}
        <Paper withBorder p="md">
          <Title order={5} mb="xs">
            {t('orderPages.card')}
          </Title>
          <CardEntry
            domain={host()}
            onPaymentMethod={placeOrder}
            submitLabel={`${props.trial ? t('orderPages.start_trial') : t('orderPages.submit')}${
              price !== null ? ` (${money(price, i18n.language)})` : ''
            }`}
          />
        </Paper>
        {payError && (
          <Alert color="red" data-testid="order-error">
            {payError}
          </Alert>
        )}
      </Stack>
    </div>
  );
}
