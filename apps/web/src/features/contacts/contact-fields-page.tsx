import { Badge, Button, Group, Modal, Select, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../components/list/confirm.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { type TContactField, useContactFields, useDeleteField, useSaveField } from './api/contacts.ts';

const TYPES: TContactField['type'][] = ['text', 'number', 'date', 'email', 'phone'];
const KEY_RE = /^[a-z][a-z0-9_]{0,63}$/;

/** A label's default key: lower case, words joined by underscores. */
export const keyOf = (label: string) =>
  label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, 'f_$1')
    .slice(0, 64);

/** business.contacts.fields: the business's custom contact fields: list, add, edit, deactivate, delete. */
export default function ContactFieldsPage() {
  const { t } = useTranslation();
  const fields = useContactFields(false);
  const save = useSaveField();
  const remove = useDeleteField();
  const [editing, setEditing] = useState<TContactField | 'new' | null>(null);

  if (fields.isError) return <LoadFailed message={fields.error.message} testId="contact-fields-load-error" />;
  if (!fields.data) return <Loading />;

  return (
    <Stack>
      <ListHeader title={t('menu.contact_fields')} />
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('contact_fields.hint')}
        </Text>
        <Button onClick={() => setEditing('new')} data-testid="contact-fields-add">
          {t('contact_fields.add')}
        </Button>
      </Group>
      {fields.data.length === 0 ? (
        <Text c="dimmed" data-testid="contact-fields-empty">
          {t('contact_fields.empty')}
        </Text>
      ) : (
        <Table data-testid="contact-fields-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('contact_fields.label')}</Table.Th>
              <Table.Th>{t('contact_fields.key')}</Table.Th>
              <Table.Th>{t('contact_fields.type')}</Table.Th>
              <Table.Th>{t('contact_fields.active')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.data.map((f) => (
              <Table.Tr key={f.id} data-testid={`contact-field-${f.key}`}>
                <Table.Td>{f.label}</Table.Td>
                <Table.Td>
                  <code>{f.key}</code>
                </Table.Td>
                <Table.Td>{t(`contact_fields.types.${f.type}`)}</Table.Td>
                <Table.Td>
                  <Badge color={f.active ? 'green' : 'gray'} variant="light">
                    {f.active ? t('contact_fields.active') : t('contact_fields.inactive')}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <RowButtons
                    actions={[
                      {
                        label: t('contacts.edit_short'),
                        onClick: () => setEditing(f),
                        testId: `contact-field-edit-${f.id}`,
                      },
                      {
                        label: f.active ? t('contact_fields.deactivate') : t('contact_fields.activate'),
                        onClick: () =>
                          save.mutate({
                            id: f.id,
                            body: { label: f.label, type: f.type, active: !f.active },
                          }),
                        testId: `contact-field-toggle-${f.id}`,
                      },
                      {
                        label: t('common.delete'),
                        color: 'red',
                        testId: `contact-field-delete-${f.id}`,
                        onClick: () =>
                          confirmAction({
                            title: t('contact_fields.delete_title'),
                            text: t('contact_fields.delete_confirm', { label: f.label }),
                            confirm: t('common.delete'),
                            testId: 'contact-field-delete-ok',
                            onConfirm: () => remove.mutate(f.id),
                          }),
                      },
                    ]}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('contact_fields.add') : t('contact_fields.edit')}
      >
        {editing !== null && (
          <FieldForm
            key={editing === 'new' ? 'new' : editing.id}
            field={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}

function FieldForm({ field, onDone }: { field: TContactField | null; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveField();
  const [label, setLabel] = useState(field?.label ?? '');
  const [key, setKey] = useState(field?.key ?? '');
  const [keyTouched, setKeyTouched] = useState(field !== null);
  const [type, setType] = useState<TContactField['type']>(field?.type ?? 'text');
  const [active, setActive] = useState(field?.active ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    if (!label.trim()) next.label = t('contact_fields.label_required');
    if (!KEY_RE.test(key)) next.key = t('contact_fields.key_invalid');
    setErrors(next);
    if (Object.keys(next).length) return;
    save.mutate(
      { id: field?.id ?? null, body: { key: key || undefined, label: label.trim(), type, active } },
      {
        onSuccess: onDone,
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'VALIDATION')
            setErrors({
              label: err.field('label') ?? '',
              key: err.field('key') ?? '',
              type: err.field('type') ?? '',
            });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('contact_fields.label')}
          required
          value={label}
          error={errors.label || undefined}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setLabel(v);
            if (!keyTouched) setKey(keyOf(v));
          }}
          data-testid="contact-field-label"
        />
        <TextInput
          label={t('contact_fields.key')}
          description={t('contact_fields.key_hint')}
          required
          value={key}
          disabled={field !== null}
          error={errors.key || undefined}
          onChange={(e) => {
            setKeyTouched(true);
            setKey(e.currentTarget.value);
          }}
          data-testid="contact-field-key"
        />
        <Select
          label={t('contact_fields.type')}
          data={TYPES.map((v) => ({ value: v, label: t(`contact_fields.types.${v}`) }))}
          value={type}
          onChange={(v) => setType((v ?? 'text') as TContactField['type'])}
          allowDeselect={false}
          error={errors.type || undefined}
          data-testid="contact-field-type"
        />
        <Switch
          label={t('contact_fields.active')}
          checked={active}
          onChange={(e) => setActive(e.currentTarget.checked)}
          data-testid="contact-field-active"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="contact-field-save">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
