import {
  Badge,
  Button,
  Divider,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { textValue } from '../../lib/text-value.ts';
import {
  agentName,
  useContactAction,
  useContactsAction,
  useEmailContact,
  useSendIcs,
  useSmsAgents,
  useUpdateContact,
} from './api/inbox.ts';
import type { InboxContact } from './types.ts';

/** The contact panel's modals: e-mail the contact, send a calendar invitation. */
type ContactModalProps = { contact: InboxContact; opened: boolean; onClose: () => void };

function EmailModal({ contact, opened, onClose }: ContactModalProps) {
  const { t } = useTranslation();
  const email = useEmailContact(contact.id);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('inbox.contact.email_title', { email: contact.email ?? '' })}
    >
      <Stack>
        <TextInput
          label={t('inbox.contact.subject')}
          {...textValue(subject, setSubject)}
          required
          data-testid="email-contact-subject"
        />
        <Textarea
          label={t('inbox.contact.body')}
          {...textValue(body, setBody)}
          data-testid="email-contact-body"
          minRows={4}
          autosize
          required
        />
        <Button
          loading={email.isPending}
          disabled={!subject.trim() || !body.trim()}
          data-testid="email-contact-send"
          onClick={() =>
            email.mutate(
              { subject, body },
              {
                onSuccess: () => {
                  setSubject('');
                  setBody('');
                  onClose();
                },
              },
            )
          }
        >
          {t('inbox.contact.send_email')}
        </Button>
      </Stack>
    </Modal>
  );
}

/**
 * The conversation header's "E-mail" button (ADR 090): the same modal, sent through the business's own
 * e-mail account when it has one; the draft stays when sending fails.
 */
export function EmailContactButton({ contact }: { contact: InboxContact }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="compact-xs"
        variant="light"
        disabled={!contact.email}
        title={contact.email ? undefined : t('mailSettings.no_email_hint')}
        onClick={() => setOpen(true)}
        data-testid="email-contact-open"
      >
        {t('mailSettings.email_contact')}
      </Button>
      <EmailModal contact={contact} opened={open} onClose={() => setOpen(false)} />
    </>
  );
}

function IcsModal({ contact, opened, onClose }: ContactModalProps) {
  const { t } = useTranslation();
  const ics = useSendIcs(contact.id);
  const [title, setTitle] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [description, setDescription] = useState('');
  const invalid = !title.trim() || !start || !end || new Date(end) <= new Date(start);
  return (
    <Modal opened={opened} onClose={onClose} title={t('inbox.contact.ics_title')}>
      <Stack>
        <TextInput label={t('inbox.contact.ics_name')} {...textValue(title, setTitle)} required />
        <TextInput
          type="datetime-local"
          label={t('inbox.contact.ics_start')}
          {...textValue(start, setStart)}
          required
        />
        <TextInput
          type="datetime-local"
          label={t('inbox.contact.ics_end')}
          {...textValue(end, setEnd)}
          error={
            start && end && new Date(end) <= new Date(start) ? t('inbox.contact.ics_end_after') : undefined
          }
          required
        />
        <Textarea label={t('inbox.contact.ics_description')} {...textValue(description, setDescription)} />
        <Button
          loading={ics.isPending}
          disabled={invalid}
          onClick={() =>
            ics.mutate(
              { title, start: new Date(start).toISOString(), end: new Date(end).toISOString(), description },
              { onSuccess: () => onClose() },
            )
          }
        >
          {t('inbox.contact.ics_send')}
        </Button>
      </Stack>
    </Modal>
  );
}

/** The contact side panel: name and e-mail, block, opt-out state, on top, agent, e-mail, calendar invitation. */
export function ContactPanel({ contact, installId }: { contact: InboxContact; installId: number }) {
  const { t } = useTranslation();
  const update = useUpdateContact(contact.id);
  const action = useContactAction(contact.id);
  const contacts = useContactsAction(contact.id);
  const agents = useSmsAgents(installId);
  const [first, setFirst] = useState(contact.first_name);
  const [last, setLast] = useState(contact.last_name);
  const [email, setEmail] = useState(contact.email ?? '');
  const [emailOpen, setEmailOpen] = useState(false);
  const [icsOpen, setIcsOpen] = useState(false);

  useEffect(() => {
    setFirst(contact.first_name);
    setLast(contact.last_name);
    setEmail(contact.email ?? '');
  }, [contact.first_name, contact.last_name, contact.email]);

  return (
    <Stack gap="sm" data-testid="contact-panel">
      <Title order={5}>{contact.name}</Title>
      <Text size="sm">{contact.phone}</Text>
      <Group gap="xs">
        {contact.opted_out && (
          <Badge color="orange" data-testid="opted-out">
            {t('inbox.contact.opted_out')}
          </Badge>
        )}
        {contact.blocked && <Badge color="red">{t('inbox.contact.blocked')}</Badge>}
        {contact.on_top && <Badge color="grape">{t('inbox.contact.on_top')}</Badge>}
      </Group>
      <TextInput size="xs" label={t('inbox.contact.first_name')} {...textValue(first, setFirst)} />
      <TextInput size="xs" label={t('inbox.contact.last_name')} {...textValue(last, setLast)} />
      <TextInput size="xs" type="email" label={t('inbox.contact.email')} {...textValue(email, setEmail)} />
      <Button
        size="xs"
        loading={update.isPending}
        onClick={() => update.mutate({ first_name: first, last_name: last, email: email.trim() || null })}
      >
        {t('inbox.contact.save')}
      </Button>
      <Divider />
      <Select
        size="xs"
        label={t('inbox.contact.agent')}
        placeholder={t('inbox.contact.no_agent')}
        data={(agents.data ?? []).map((a) => ({ value: String(a.id), label: agentName(a) }))}
        value={contact.agent_user_id ? String(contact.agent_user_id) : null}
        onChange={(v) => contacts.mutate({ kind: 'agent', agentId: v ? Number(v) : null })}
        clearable
      />
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => contacts.mutate({ kind: 'on-top' })}>
          {t('inbox.contact.set_on_top')}
        </Button>
        <Button
          size="xs"
          variant="default"
          color="red"
          onClick={() => action.mutate({ action: contact.blocked ? 'unblock' : 'block' })}
          loading={action.isPending}
        >
          {contact.blocked ? t('inbox.contact.unblock') : t('inbox.contact.block')}
        </Button>
        {!contact.opted_out && (
          <Button size="xs" variant="default" onClick={() => contacts.mutate({ kind: 'opt-out' })}>
            {t('inbox.contact.opt_out')}
          </Button>
        )}
        <Button size="xs" variant="default" onClick={() => action.mutate({ action: 'refresh' })}>
          {t('inbox.contact.refresh')}
        </Button>
      </Group>
      <Group gap="xs">
        <Button size="xs" variant="light" disabled={!contact.email} onClick={() => setEmailOpen(true)}>
          {t('inbox.contact.email_button')}
        </Button>
        <Button size="xs" variant="light" onClick={() => setIcsOpen(true)}>
          {t('inbox.contact.ics_button')}
        </Button>
      </Group>
      <EmailModal contact={contact} opened={emailOpen} onClose={() => setEmailOpen(false)} />
      <IcsModal contact={contact} opened={icsOpen} onClose={() => setIcsOpen(false)} />
    </Stack>
  );
}
