import { SimpleGrid, Text } from '@mantine/core';
import { PLAN_INTERVALS, type TPlan, type TPlanRequest, ZPlanRequest } from '@stn/contracts/businesses';
import { PLAN_DEFAULTS } from '@stn/contracts/constants';
import { PLAN_TYPES, type TPlanType } from '@stn/contracts/subscriptions';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import {
  NumberField,
  PriceField,
  SelectField,
  SwitchField,
  TextareaField,
  TextField,
} from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { FormShell } from '../../components/form/form-shell.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { Loading } from '../../components/load-state.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { usePlan, useSavePlan } from './api/plans.ts';
import { centsOf, renameField } from './money.ts';

type Num = number | string;
const SWITCHES = ['Default', 'Visible', 'RemoveBranding', 'Zapier', 'Department', 'AiIntegration'] as const;
const NUMBERS = ['Users', 'Installs', 'Automations', 'Messages', 'Calls'] as const;

type Values = {
  name: string;
  interval: string;
  /** Who buys the plan; only the main agency chooses (its 'agency' plans are sold to agencies). */
  type: TPlanType;
  price: Num;
  trial_days: Num;
  active: boolean;
  features: Record<(typeof SWITCHES)[number], boolean> &
    Record<(typeof NUMBERS)[number], Num> & { Description: string };
};

const num = (v: Num) => (v === '' ? null : Number(v));

function valuesOf(p?: TPlan): Values {
  const f = p?.features;
  return {
    name: p?.name ?? '',
    interval: p?.interval ?? 'month',
    type: p?.type ?? 'business',
    price: p ? p.price_cents / 100 : 0,
    trial_days: p?.trial_days ?? 0,
    active: p?.active ?? true,
    features: {
      Default: f?.Default ?? false,
      Visible: f?.Visible ?? true,
      RemoveBranding: f?.RemoveBranding ?? false,
      Zapier: f?.Zapier ?? false,
      Department: f?.Department ?? false,
      AiIntegration: f?.AiIntegration ?? false,
      // Spec 001 §9: Users 1, Installs 1, Automations 2, Messages 200, Calls 20.
      Users: f?.Users ?? PLAN_DEFAULTS.Users,
      Installs: f?.Installs ?? PLAN_DEFAULTS.Installs,
      Automations: f?.Automations ?? PLAN_DEFAULTS.Automations,
      Messages: f?.Messages ?? PLAN_DEFAULTS.Messages,
      Calls: f?.Calls ?? PLAN_DEFAULTS.Calls,
      Description: f?.Description ?? '',
    },
  };
}

/** The request: the price typed in dollars goes as integer cents. */
const requestOf = (v: Values) => ({
  name: v.name,
  interval: v.interval,
  type: v.type,
  price_cents: centsOf(v.price),
  trial_days: num(v.trial_days),
  active: v.active,
  features: {
    ...v.features,
    ...Object.fromEntries(NUMBERS.map((n) => [n, num(v.features[n])])),
  },
});

const resolve = zodResolver(ZPlanRequest);
const validate = (v: Values) => renameField(resolve(requestOf(v)), 'price_cents', 'price');

const FIELDS = [
  'name',
  'interval',
  'type',
  'price_cents',
  'trial_days',
  'active',
  ...SWITCHES.map((s) => `features.${s}`),
  ...NUMBERS.map((n) => `features.${n}`),
  'features.Description',
];

/** Add or edit a subscription plan (spec 000 §2 agency plans add, edit/:id; feature keys of spec 001 §9). */
export default function PlanForm() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const agencyId = useAuth().user?.agency?.id ?? 0;
  const plan = usePlan(agencyId, id);
  if (!id) return <PlanFormBody agencyId={agencyId} />;
  if (plan.isPending) return <Loading />;
  if (!plan.data) return <Text c="red">{t('agency.common.load_failed')}</Text>;
  return <PlanFormBody key={plan.data.id} agencyId={agencyId} plan={plan.data} />;
}

function PlanFormBody({ agencyId, plan }: { agencyId: number; plan?: TPlan }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSavePlan(agencyId, plan?.id);
  const isMain = useAuth().user?.agency?.is_main === true;
  const toList = () => navigate(pathOf('agency.plans'));
  // 'This agency already has a default plan.' comes on features.Default, next to its switch.
  const { form, submit } = useApiForm<Values>({
    initialValues: valuesOf(plan),
    validate,
    fields: FIELDS,
    rename: { price_cents: 'price' },
    onSubmit: (v) => save.mutateAsync(requestOf(v) as TPlanRequest),
    onSuccess: toList,
  });
  const types = PLAN_TYPES.map((value) => ({ value, label: t(`agency.plans.types.${value}`) }));
  const intervals = PLAN_INTERVALS.map((value) => ({ value, label: t(`agency.plans.intervals.${value}`) }));

  return (
    <FormShell
      form={form}
      title={plan ? t('agency.plans.edit') : t('agency.plans.add')}
      onSubmit={submit}
      width={860}
      actions={<FormActions submitting={save.isPending} submitTestId="plan-form-submit" onCancel={toList} />}
      extra={
        <FormSection title={t('agency.plans.features_title')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {SWITCHES.map((s) => (
              <SwitchField
                key={s}
                name={`features.${s}`}
                label={t(`agency.plans.features.${s}`)}
                testId={`plan-form-${s}`}
              />
            ))}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {NUMBERS.map((n) => (
              <NumberField
                key={n}
                name={`features.${n}`}
                label={t(`agency.plans.features.${n}`)}
                min={0}
                allowDecimal={false}
                required
                testId={`plan-form-${n}`}
              />
            ))}
          </SimpleGrid>
          <TextareaField
            name="features.Description"
            label={t('agency.plans.features.Description')}
            minRows={3}
            testId="plan-form-description"
          />
        </FormSection>
      }
    >
      <TextField name="name" label={t('agency.plans.name')} required testId="plan-form-name" />
      {isMain && (
        <SelectField
          name="type"
          label={t('agency.plans.type')}
          description={t('agency.plans.type_hint')}
          data={types}
          allowDeselect={false}
          required
          testId="plan-form-type"
        />
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <SelectField
          name="interval"
          label={t('agency.plans.interval')}
          data={intervals}
          allowDeselect={false}
          required
          testId="plan-form-interval"
        />
        <PriceField name="price" label={t('agency.plans.price')} required testId="plan-form-price" />
        <NumberField
          name="trial_days"
          label={t('agency.plans.trial_days')}
          min={0}
          max={365}
          allowDecimal={false}
          testId="plan-form-trial-days"
        />
      </SimpleGrid>
      <SwitchField name="active" label={t('agency.plans.active')} testId="plan-form-active" />
    </FormShell>
  );
}
