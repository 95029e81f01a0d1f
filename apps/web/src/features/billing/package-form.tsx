import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  PACKAGE_KINDS,
  type TPackage,
  type TPackageRequest,
  ZPackageRequest,
} from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { Loading } from '../../components/load-state.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { usePackage, useSavePackage } from './api/packages.ts';
import { centsOf, renameField } from './money.ts';

type Num = number | string;
type Values = { name: string; kind: string | null; quantity: Num; price: Num; active: boolean };

const requestOf = (v: Values) => ({
  name: v.name,
  kind: v.kind ?? undefined,
  quantity: v.quantity === '' ? null : Number(v.quantity),
  price_cents: centsOf(v.price),
  active: v.active,
});
const resolve = zodResolver(ZPackageRequest);
const validate = (v: Values) => renameField(resolve(requestOf(v)), 'price_cents', 'price');

/** Add or edit a package (spec 000 §2 agency packages add, edit/:id). */
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
  const form = useForm<Values>({
    initialValues: {
      name: pkg?.name ?? '',
      kind: pkg?.kind ?? null,
      quantity: pkg?.quantity ?? '',
      price: pkg ? pkg.price_cents / 100 : '',
      active: pkg?.active ?? true,
    },
    validate,
  });
  const toList = () => navigate(pathOf('agency.packages'));
  const submit = form.onSubmit((v) =>
    save.mutate(requestOf(v) as TPackageRequest, {
      onSuccess: toList,
      onError: (err) =>
        applyServerErrors(
          {
            setFieldError: (path, message) =>
              form.setFieldError(path === 'price_cents' ? 'price' : path, message),
          },
          err,
          ['name', 'kind', 'quantity', 'price_cents', 'active'],
        ),
    }),
  );
  const kinds = PACKAGE_KINDS.map((value) => ({ value, label: t(`agency.packages.kinds.${value}`) }));
  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={760}>
        <Title order={2} data-testid="page-title">
          {pkg ? t('agency.packages.edit') : t('agency.packages.add')}
        </Title>
        <Paper withBorder p="lg" radius="md">
          <Stack>
            <TextInput
              label={t('agency.packages.name')}
              required
              data-testid="package-form-name"
              {...form.getInputProps('name')}
            />
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Select
                label={t('agency.packages.kind')}
                data={kinds}
                required
                data-testid="package-form-kind"
                {...form.getInputProps('kind')}
              />
              <NumberInput
                label={t('agency.packages.quantity')}
                min={1}
                allowDecimal={false}
                required
                data-testid="package-form-quantity"
                {...form.getInputProps('quantity')}
              />
              <NumberInput
                label={t('agency.packages.price')}
                prefix="$"
                min={0}
                decimalScale={2}
                fixedDecimalScale
                thousandSeparator=","
                required
                data-testid="package-form-price"
                {...form.getInputProps('price')}
              />
            </SimpleGrid>
            <Switch
              label={t('agency.packages.active')}
              data-testid="package-form-active"
              {...form.getInputProps('active', { type: 'checkbox' })}
            />
          </Stack>
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" onClick={toList}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="package-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
