import { SimpleGrid, Text } from '@mantine/core';
import {
  PACKAGE_KINDS,
  type TPackage,
  type TPackageRequest,
  ZPackageRequest,
} from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import {
  NumberField,
  PriceField,
  SelectField,
  SwitchField,
  TextField,
} from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormShell } from '../../components/form/form-shell.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { Loading } from '../../components/load-state.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { usePackage, useSavePackage } from './api/packages.ts';
import { centsOf, renameField } from './money.ts';

type Num = number | string;
type Values = {
  name: string;
  kind: string | null;
  quantity: Num;
  price: Num;
  active: boolean;
  order_bump: boolean;
};

const requestOf = (v: Values) => ({
  name: v.name,
  kind: v.kind ?? undefined,
  quantity: v.quantity === '' ? null : Number(v.quantity),
  price_cents: centsOf(v.price),
  active: v.active,
  order_bump: v.order_bump,
});
const resolve = zodResolver(ZPackageRequest);
const validate = (v: Values) => renameField(resolve(requestOf(v)), 'price_cents', 'price');

/** Add or edit a package of messages, calls or installs (spec 000 §2 agency packages add, edit/:id). */
export default function PackageForm() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const pkg = usePackage(id);
  if (!id) return <PackageFormBody />;
  if (pkg.isPending) return <Loading />;
  if (!pkg.data) return <Text c="red">{t('agency.common.load_failed')}</Text>;
  return <PackageFormBody key={pkg.data.id} pkg={pkg.data} />;
}

function PackageFormBody({ pkg }: { pkg?: TPackage }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSavePackage(pkg?.id);
  const toList = () => navigate(pathOf('agency.packages'));
  const { form, submit } = useApiForm<Values>({
    initialValues: {
      name: pkg?.name ?? '',
      kind: pkg?.kind ?? null,
      quantity: pkg?.quantity ?? '',
      price: pkg ? pkg.price_cents / 100 : '',
      active: pkg?.active ?? true,
      order_bump: pkg?.order_bump ?? false,
    },
    validate,
    fields: ['name', 'kind', 'quantity', 'price_cents', 'active', 'order_bump'],
    rename: { price_cents: 'price' },
    onSubmit: (v) => save.mutateAsync(requestOf(v) as TPackageRequest),
    onSuccess: toList,
  });
  const kinds = PACKAGE_KINDS.map((value) => ({ value, label: t(`agency.packages.kinds.${value}`) }));
  return (
    <FormShell
      form={form}
      title={pkg ? t('agency.packages.edit') : t('agency.packages.add')}
      onSubmit={submit}
      actions={
        <FormActions submitting={save.isPending} submitTestId="package-form-submit" onCancel={toList} />
      }
    >
      <TextField name="name" label={t('agency.packages.name')} required testId="package-form-name" />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <SelectField
          name="kind"
          label={t('agency.packages.kind')}
          data={kinds}
          required
          testId="package-form-kind"
        />
        <NumberField
          name="quantity"
          label={t('agency.packages.quantity')}
          min={1}
          allowDecimal={false}
          required
          testId="package-form-quantity"
        />
        <PriceField name="price" label={t('agency.packages.price')} required testId="package-form-price" />
      </SimpleGrid>
      <SwitchField name="active" label={t('agency.packages.active')} testId="package-form-active" />
      <SwitchField
        name="order_bump"
        label={t('agency.packages.order_bump')}
        description={t('agency.packages.order_bump_hint')}
        testId="package-form-order-bump"
      />
    </FormShell>
  );
}
