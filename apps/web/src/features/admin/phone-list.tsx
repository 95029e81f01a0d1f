import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { type TPhoneList, type TPhoneListEntry, ZPhoneListRequest } from '@stn/contracts/users';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { PhoneField } from '../../components/phone-field.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { phoneListKeys, phoneListPath, useAddPhone, useDeletePhone } from './api/phone-lists.ts';

type Values = { phone: string; note: string };
const EMPTY: Values = { phone: '', note: '' };
const requestOf = (v: Values) => ({ phone: v.phone, note: v.note.trim() ? v.note : null });
const resolve = zodResolver(ZPhoneListRequest);

/** The platform blacklist or whitelist: the numbers, adding one and removing one. */
export function PhoneListScreen({ list }: { list: TPhoneList }) {
  const { t, i18n } = useTranslation();
  const add = useAddPhone(list);
  const remove = useDeletePhone(list);
  const form = useForm<Values>({ initialValues: EMPTY, validate: (v) => resolve(requestOf(v)) });

  const submit = form.onSubmit(async (values) => {
    try {
      await add.mutateAsync(requestOf(values));
      form.setValues(EMPTY);
      form.resetDirty(EMPTY);
    } catch (err) {
      applyServerErrors(form, err, ['phone', 'note']);
    }
  });

  const confirmDelete = (entry: TPhoneListEntry) =>
    modals.openConfirmModal({
      title: t(`admin.phone_lists.${list}.delete_title`),
      children: <Text size="sm">{t(`admin.phone_lists.${list}.delete_text`, { phone: entry.phone })}</Text>,
      labels: { confirm: t('admin.phone_lists.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-ok' },
      onConfirm: () => remove.mutate(entry.id),
    });

  const columns: Column<TPhoneListEntry>[] = [
    { key: 'phone', title: t('admin.phone_lists.phone'), render: (e) => <Text fw={500}>{e.phone}</Text> },
    { key: 'note', title: t('admin.phone_lists.note'), render: (e) => e.note ?? '' },
    {
      key: 'created',
      title: t('admin.phone_lists.added'),
      render: (e) =>
        new Date(e.created_at).toLocaleDateString(i18n.language === 'br' ? 'pt-BR' : i18n.language),
    },
  ];

  return (
    <Stack>
      <Title order={2} data-testid="page-title">
        {t(`menu.${list}`)}
      </Title>
      <Text size="sm" c="dimmed">
        {t(`admin.phone_lists.${list}.hint`)}
      </Text>
      <form onSubmit={submit} noValidate>
        <Paper withBorder p="md" radius="md">
          <Group align="flex-start">
            <PhoneField
              label={t('admin.phone_lists.phone')}
              required
              data-testid="phone-list-phone"
              {...form.getInputProps('phone')}
              value={form.values.phone}
            />
            <TextInput
              flex={1}
              label={t('admin.phone_lists.note')}
              data-testid="phone-list-note"
              {...form.getInputProps('note')}
            />
            <Button type="submit" mt={25} loading={add.isPending} data-testid="phone-list-add">
              {t('admin.phone_lists.add')}
            </Button>
          </Group>
        </Paper>
      </form>
      <Paper withBorder p="md" radius="md">
        <DataTable<TPhoneListEntry>
          path={phoneListPath(list)}
          queryKey={phoneListKeys.list(list)}
          columns={columns}
          testId="phone-list-table"
          actions={(e) => (
            <Group justify="flex-end">
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => confirmDelete(e)}
                data-testid={`phone-list-delete-${e.id}`}
              >
                {t('admin.phone_lists.delete')}
              </Button>
            </Group>
          )}
        />
      </Paper>
    </Stack>
  );
}
