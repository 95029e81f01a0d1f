import { Button, Group, Paper, Select, SimpleGrid, Stack, Switch, TextInput, Title } from '@mantine/core';
import { zPhone } from '@stn/contracts/users';
import { zEmail } from '@stn/contracts/validation';
import { z } from '@stn/contracts/zod';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormShell } from '../../components/form/form-shell.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { confirmAction } from '../../components/list/confirm.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { PhoneField } from '../../components/phone-field.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { useAgents } from '../../lib/pickers.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import {
  type TContact,
  type TContactField,
  useContact,
  useContactFields,
  useDeleteContact,
  useInstallOptions,
  useSaveContact,
  useSetAgent,
  useSetBlocked,
  useSetOptOut,
} from './api/contacts.ts';
import { ContactAutomations } from './contact-automations.tsx';
import { ContactLeads } from './contact-leads.tsx';
import { TagPicker } from './tag-picker.tsx';
import { textPath } from './text-path.ts';

type Values = {
  install_id: string;
  phone: string;
  first_name: string;
  last_name: string;
  email: string;
  birthday: string;
  anniversary: string;
  fields: Record<string, string>;
  tag_ids: string[];
};

const FIELDS = [
  'install_id',
  'phone',
  'first_name',
  'last_name',
  'email',
  'birthday',
  'anniversary',
  'tag_ids',
];

const zDate = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'validation.invalid' })
    .nullable();

/** What the form checks before sending (the server checks the same and answers 422 otherwise). */
const ZContactForm = z.object({
  install_id: z.number().int().positive().nullable(),
  phone: zPhone(),
  first_name: z.string().trim().max(100),
  last_name: z.string().trim().max(100),
  email: zEmail().nullable(),
  birthday: zDate(),
  anniversary: zDate(),
});

const valuesOf = (c: TContact | null, installId: string): Values => ({
  install_id: installId,
  phone: c?.phone ?? '',
  first_name: c?.first_name ?? '',
  last_name: c?.last_name ?? '',
  email: c?.email ?? '',
  birthday: c?.birthday ?? '',
  anniversary: c?.anniversary ?? '',
  fields: { ...(c?.fields ?? {}) },
  tag_ids: c?.tags.map((tg) => String(tg.id)) ?? [],
});

const bodyOf = (v: Values, fields: TContactField[]) => ({
  phone: v.phone,
  tag_ids: v.tag_ids.map(Number),
  first_name: v.first_name.trim(),
  last_name: v.last_name.trim(),
  email: v.email.trim() || null,
  birthday: v.birthday || null,
  anniversary: v.anniversary || null,
  fields: Object.fromEntries(fields.map((f) => [f.key, (v.fields[f.key] ?? '').trim()])),
});

/** business.contacts.create and business.contacts.edit (:id). */
export default function ContactFormPage() {
  const id = Number(useParams().id ?? 0);
  const contact = useContact(id);
  const installs = useInstallOptions();
  const fields = useContactFields(true);
  if (contact.isError) return <LoadFailed message={contact.error.message} testId="contact-load-error" />;
  if ((id && !contact.data) || !fields.data || !installs.data) return <Loading />;
  const firstInstall = installs.data.length === 1 ? String(installs.data[0]?.id) : '';
  return (
    <ContactForm
      key={contact.data?.id ?? 'new'}
      contact={contact.data ?? null}
      fields={fields.data}
      installs={installs.data}
      initialInstall={firstInstall}
    />
  );
}

function ContactForm(props: {
  contact: TContact | null;
  fields: TContactField[];
  installs: { id: number; name: string }[];
  initialInstall: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAuth().user;
  const canText = userCan(user, 'inbox.use');
  const canAutomate = userCan(user, 'automations.use');
  const { contact, fields } = props;
  const save = useSaveContact(contact?.id ?? null);
  const resolve = zodResolver(ZContactForm);
  const { form, submit } = useApiForm<Values>({
    initialValues: valuesOf(contact, props.initialInstall),
    validate: (v) => {
      const errors = resolve({
        ...bodyOf(v, fields),
        install_id: v.install_id ? Number(v.install_id) : null,
      });
      if (!contact && !v.install_id) errors.install_id = t('contacts.install_required');
      return errors;
    },
    fields: FIELDS,
    onSubmit: (v) =>
      save.mutateAsync({
        body: bodyOf(v, fields),
        installId: v.install_id ? Number(v.install_id) : null,
      }),
    onSuccess: () => navigate(pathOf('business.contacts')),
  });

  return (
    <FormShell
      form={form}
      title={contact ? t('contacts.edit') : t('contacts.add')}
      back={{ label: t('menu.contacts'), to: pathOf('business.contacts') }}
      onSubmit={submit}
      extra={
        contact && (
          <>
            <ContactStatus contact={contact} />
            <ContactLeads contactId={contact.id} />
            {canAutomate && <ContactAutomations contactId={contact.id} />}
          </>
        )
      }
      actions={
        <FormActions
          submitting={save.isPending}
          submitTestId="contact-form-submit"
          cancelTo={pathOf('business.contacts')}
          left={
            contact && (
              <Group gap="xs">
                <DeleteButton contact={contact} />
                {canText && (
                  <Button component={Link} to={textPath(contact)} variant="light" data-testid="contact-text">
                    {t('contacts.text')}
                  </Button>
                )}
              </Group>
            )
          }
        />
      }
    >
      {!contact && (
        <Select
          label={t('contacts.install')}
          description={t('contacts.install_hint')}
          data={props.installs.map((i) => ({ value: String(i.id), label: i.name }))}
          required
          data-testid="contact-form-install"
          {...form.getInputProps('install_id')}
        />
      )}
      {contact ? (
        <TextInput
          label={t('contacts.phone')}
          value={contact.phone}
          readOnly
          data-testid="contact-form-phone-fixed"
        />
      ) : (
        <PhoneField
          label={t('contacts.phone')}
          required
          data-testid="contact-form-phone"
          {...form.getInputProps('phone')}
          value={form.values.phone}
        />
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField name="first_name" label={t('contacts.first_name')} testId="contact-form-first-name" />
        <TextField name="last_name" label={t('contacts.last_name')} testId="contact-form-last-name" />
      </SimpleGrid>
      <TextField name="email" type="email" label={t('contacts.email')} testId="contact-form-email" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField
          name="birthday"
          type="date"
          label={t('contacts.birthday')}
          testId="contact-form-birthday"
        />
        <TextField
          name="anniversary"
          type="date"
          label={t('contacts.anniversary')}
          testId="contact-form-anniversary"
        />
      </SimpleGrid>
      {fields.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {fields.map((f) => (
            <TextField
              key={f.id}
              name={`fields.${f.key}`}
              type={
                f.type === 'number'
                  ? 'number'
                  : f.type === 'date'
                    ? 'date'
                    : f.type === 'email'
                      ? 'email'
                      : 'text'
              }
              label={f.label}
              testId={`contact-form-field-${f.key}`}
            />
          ))}
        </SimpleGrid>
      )}
      <TagPicker
        value={form.values.tag_ids}
        onChange={(v) => form.setFieldValue('tag_ids', v)}
        error={typeof form.errors.tag_ids === 'string' ? form.errors.tag_ids : null}
        testId="contact-form-tags"
      />
    </FormShell>
  );
}

/** An existing contact's agent, opt-out and block: each applies at once (the switches ask first). */
function ContactStatus({ contact }: { contact: TContact }) {
  const { t } = useTranslation();
  const agents = useAgents('sms');
  const setAgent = useSetAgent();
  const optOut = useSetOptOut();
  const block = useSetBlocked();
  const [agent, setAgentValue] = useState<string | null>(
    contact.agent_user_id ? String(contact.agent_user_id) : null,
  );
  const optedOut = contact.opted_out_at !== null;
  const blocked = contact.blocked_at !== null;

  const askOptOut = () =>
    confirmAction({
      title: t(optedOut ? 'contacts.opt_in_title' : 'contacts.opt_out_title'),
      text: t(optedOut ? 'contacts.opt_in_confirm' : 'contacts.opt_out_confirm', { phone: contact.phone }),
      confirm: t('contacts.confirm_yes'),
      color: 'orange',
      testId: 'contact-opt-out-ok',
      onConfirm: () => optOut.mutate({ id: contact.id, optedOut: !optedOut }),
    });
  const askBlock = () =>
    confirmAction({
      title: t(blocked ? 'contacts.unblock_title' : 'contacts.block_title'),
      text: t(blocked ? 'contacts.unblock_confirm' : 'contacts.block_confirm', { phone: contact.phone }),
      confirm: t('contacts.confirm_yes'),
      testId: 'contact-block-ok',
      onConfirm: () => block.mutate({ id: contact.id, blocked: !blocked }),
    });

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack>
        <Title order={5}>{t('contacts.status')}</Title>
        <Select
          label={t('contacts.agent')}
          placeholder={t('contacts.no_agent')}
          data={(agents.data ?? []).map((a) => ({
            value: String(a.id),
            label: `${a.first_name} ${a.last_name}`.trim() || a.email,
          }))}
          value={agent}
          clearable
          onChange={(v) => {
            setAgentValue(v);
            setAgent.mutate({ id: contact.id, agentId: v ? Number(v) : null });
          }}
          data-testid="contact-agent"
        />
        <Switch
          label={t('contacts.opted_out')}
          description={t('contacts.opted_out_hint')}
          checked={optedOut}
          onChange={askOptOut}
          disabled={optOut.isPending}
          data-testid="contact-opt-out"
        />
        <Switch
          label={t('contacts.blocked')}
          description={t('contacts.blocked_hint')}
          checked={blocked}
          onChange={askBlock}
          disabled={block.isPending}
          data-testid="contact-block"
        />
      </Stack>
    </Paper>
  );
}

function DeleteButton({ contact }: { contact: TContact }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteContact();
  return (
    <Group>
      <Button
        color="red"
        variant="light"
        loading={remove.isPending}
        data-testid="contact-delete"
        onClick={() =>
          confirmAction({
            title: t('contacts.delete_title'),
            text: t('contacts.delete_confirm', { phone: contact.phone }),
            confirm: t('common.delete'),
            testId: 'contact-delete-ok',
            onConfirm: () =>
              remove.mutate(contact.id, { onSuccess: () => navigate(pathOf('business.contacts')) }),
          })
        }
      >
        {t('common.delete')}
      </Button>
    </Group>
  );
}
