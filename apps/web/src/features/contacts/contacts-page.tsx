import { Badge, Button, Group, Menu, Paper, Select, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { confirmAction } from '../../components/list/confirm.tsx';
import { type Column, DataTable, useSelection } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import {
  type BulkAction,
  CONTACTS_PATH,
  contactKeys,
  exportContacts,
  type TContact,
  useAllTags,
  useBulk,
  useBulkTag,
  useInstallOptions,
} from './api/contacts.ts';
import { openBulkAutomation } from './contact-automations.tsx';
import { ImportPanel } from './import-panel.tsx';
import { TagPicker } from './tag-picker.tsx';
import { textPath } from './text-path.ts';

type Flag = 'any' | '1' | '0';
const flagParam = (f: Flag) => (f === 'any' ? undefined : f);

export const contactName = (c: TContact) => `${c.first_name} ${c.last_name}`.trim();

/** business.contacts: the business's contacts, searched and filtered, with bulk actions, export and import. */
export default function ContactsPage() {
  const { t } = useTranslation();
  const tags = useAllTags();
  const [tag, setTag] = useState<string | null>(null);
  const [optedOut, setOptedOut] = useState<Flag>('any');
  const [blocked, setBlocked] = useState<Flag>('any');
  const selection = useSelection<number>();
  const user = useAuth().user;
  const canText = userCan(user, 'inbox.use');
  const canBroadcast = userCan(user, 'broadcasts.use');
  const canAutomate = userCan(user, 'automations.use');

  const flagOptions = [
    { value: 'any', label: t('contacts.filter_any') },
    { value: '1', label: t('contacts.filter_yes') },
    { value: '0', label: t('contacts.filter_no') },
  ];

  const columns: Column<TContact>[] = [
    { key: 'name', title: t('contacts.name'), render: (c) => contactName(c) || '—' },
    { key: 'phone', title: t('contacts.phone'), render: (c) => c.phone },
    { key: 'email', title: t('contacts.email'), render: (c) => c.email ?? '' },
    {
      key: 'tags',
      title: t('contacts.tags'),
      render: (c) => (
        <Group gap={4}>
          {c.tags.map((tg) => (
            <Badge key={tg.id} variant="light" size="sm">
              {tg.name}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'status',
      title: t('contacts.status'),
      render: (c) => (
        <Group gap={4}>
          {c.opted_out_at && (
            <Badge color="orange" size="sm" data-testid={`contact-opted-out-${c.id}`}>
              {t('contacts.opted_out')}
            </Badge>
          )}
          {c.blocked_at && (
            <Badge color="red" size="sm" data-testid={`contact-blocked-${c.id}`}>
              {t('contacts.blocked')}
            </Badge>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <ListHeader
        title={t('menu.contacts')}
        add={{ label: t('contacts.add'), to: pathOf('business.contacts.create'), testId: 'contacts-add' }}
      />
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <Select
            label={t('contacts.tag')}
            placeholder={t('contacts.filter_any')}
            data={(tags.data ?? []).map((tg) => ({ value: String(tg.id), label: tg.name }))}
            value={tag}
            onChange={setTag}
            clearable
            searchable
            data-testid="contacts-filter-tag"
          />
          <Select
            label={t('contacts.opted_out')}
            data={flagOptions}
            value={optedOut}
            onChange={(v) => setOptedOut((v ?? 'any') as Flag)}
            allowDeselect={false}
            w={130}
            data-testid="contacts-filter-opted-out"
          />
          <Select
            label={t('contacts.blocked')}
            data={flagOptions}
            value={blocked}
            onChange={(v) => setBlocked((v ?? 'any') as Flag)}
            allowDeselect={false}
            w={130}
            data-testid="contacts-filter-blocked"
          />
        </Group>
        <Group>
          <Button
            variant="default"
            component={Link}
            to={pathOf('business.contacts.fields')}
            data-testid="contacts-fields-link"
          >
            {t('menu.contact_fields')}
          </Button>
          <ExportButton />
        </Group>
      </Group>
      <ImportPanel />
      <BulkBar
        selected={selection.selected}
        onDone={selection.clear}
        canBroadcast={canBroadcast}
        canAutomate={canAutomate}
      />
      <DataTable<TContact>
        path={CONTACTS_PATH}
        queryKey={contactKeys.list()}
        // Spec 000 §9: the contact list opens at page 1, 10 per page (other tables at 5).
        perPage={10}
        columns={columns}
        filters={{
          tag_id: tag ?? undefined,
          opted_out: flagParam(optedOut),
          blocked: flagParam(blocked),
        }}
        selection={{
          selected: selection.selected,
          toggle: selection.toggle,
          label: (c) => t('contacts.select', { name: contactName(c) || c.phone }),
          testId: (c) => `contact-select-${c.id}`,
        }}
        empty={t('contacts.empty')}
        testId="contacts-table"
        minWidth={760}
        actions={(c) => (
          <RowButtons
            actions={[
              {
                label: t('contacts.text'),
                to: textPath(c),
                testId: `contact-text-${c.id}`,
                hidden: !canText,
              },
              {
                label: t('contacts.edit_short'),
                to: pathOf('business.contacts.edit', { id: c.id }),
                testId: `contact-edit-${c.id}`,
              },
            ]}
          />
        )}
      />
    </Stack>
  );
}

/** The CSV export of one install's contacts (the call is per install), as a file download. */
function ExportButton() {
  const { t } = useTranslation();
  const installs = useInstallOptions();
  const [busy, setBusy] = useState(false);
  const run = async (id: number) => {
    setBusy(true);
    try {
      await exportContacts(id);
    } catch {
      // The client already showed the error.
    } finally {
      setBusy(false);
    }
  };
  const list = installs.data ?? [];
  if (list.length === 0) return null;
  if (list.length === 1)
    return (
      <Button
        variant="default"
        loading={busy}
        onClick={() => run(list[0]?.id ?? 0)}
        data-testid="contacts-export"
      >
        {t('contacts.export')}
      </Button>
    );
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button variant="default" loading={busy} data-testid="contacts-export">
          {t('contacts.export')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('contacts.export_install')}</Menu.Label>
        {list.map((i) => (
          <Menu.Item key={i.id} onClick={() => run(i.id)} data-testid={`contacts-export-${i.id}`}>
            {i.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The bulk bar's confirmed actions, in order: opt out, block, delete. */
const BULK_BUTTONS: readonly { action: BulkAction; key: string; color: string; variant?: 'light' }[] = [
  { action: 'bulk-optout', key: 'optout', color: 'orange', variant: 'light' },
  { action: 'bulk-block', key: 'block', color: 'red', variant: 'light' },
  { action: 'bulk-delete', key: 'delete', color: 'red' },
];

/**
 * Bulk actions over the picked contacts: a broadcast to them, add to an automation, tag, block, opt out,
 * delete (each asks first).
 */
function BulkBar({
  selected,
  onDone,
  canBroadcast,
  canAutomate,
}: {
  selected: readonly number[];
  onDone: () => void;
  canBroadcast: boolean;
  canAutomate: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const bulk = useBulk();
  const count = selected.length;
  if (count === 0) return null;
  const ids = [...selected];
  const ask = (action: BulkAction, key: string, color: string) =>
    confirmAction({
      title: t(`contacts.bulk.${key}_title`),
      text: t(`contacts.bulk.${key}_confirm`, { count }),
      confirm: t(`contacts.bulk.${key}`),
      color,
      testId: `contacts-bulk-${key}-ok`,
      onConfirm: () => bulk.mutate({ action, ids }, { onSuccess: onDone }),
    });
  const openTag = () =>
    modals.open({
      title: t('contacts.bulk.tag_title'),
      children: <BulkTagForm ids={ids} onDone={onDone} />,
    });
  return (
    <Paper withBorder p="sm" radius="md" data-testid="contacts-bulk-bar">
      <Group justify="space-between">
        <Text size="sm">{t('contacts.bulk.selected', { count })}</Text>
        <Group gap="xs">
          {canBroadcast && (
            // The broadcast builder takes the picked contacts as its audience (location state: the ids
            // may be thousands, too many for an address).
            <Button
              size="xs"
              variant="light"
              color="teal"
              onClick={() => navigate(pathOf('business.broadcast.create'), { state: { contact_ids: ids } })}
              data-testid="contacts-bulk-broadcast"
            >
              {t('contacts.bulk.broadcast')}
            </Button>
          )}
          {canAutomate && (
            <Button
              size="xs"
              variant="light"
              color="grape"
              onClick={() => openBulkAutomation(ids, onDone, t('business.automations.contact.bulk_title'))}
              data-testid="contacts-bulk-automation"
            >
              {t('business.automations.contact.bulk')}
            </Button>
          )}
          <Button size="xs" variant="light" onClick={openTag} data-testid="contacts-bulk-tag">
            {t('contacts.bulk.tag')}
          </Button>
          {BULK_BUTTONS.map((b) => (
            <Button
              key={b.key}
              size="xs"
              variant={b.variant}
              color={b.color}
              onClick={() => ask(b.action, b.key, b.color)}
              data-testid={`contacts-bulk-${b.key}`}
            >
              {t(`contacts.bulk.${b.key}`)}
            </Button>
          ))}
        </Group>
      </Group>
    </Paper>
  );
}

function BulkTagForm({ ids, onDone }: { ids: number[]; onDone: () => void }) {
  const { t } = useTranslation();
  const tag = useBulkTag();
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const save = () => {
    if (tagIds.length === 0) {
      setError(t('contacts.bulk.tag_required'));
      return;
    }
    tag.mutate(
      { ids, tag_ids: tagIds.map(Number) },
      {
        onSuccess: () => {
          modals.closeAll();
          onDone();
        },
      },
    );
  };
  return (
    <Stack>
      <TagPicker
        value={tagIds}
        onChange={(v) => {
          setTagIds(v);
          setError(null);
        }}
        error={error}
        testId="contacts-bulk-tag-picker"
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={() => modals.closeAll()}>
          {t('common.cancel')}
        </Button>
        <Button loading={tag.isPending} onClick={save} data-testid="contacts-bulk-tag-save">
          {t('common.save')}
        </Button>
      </Group>
    </Stack>
  );
}
