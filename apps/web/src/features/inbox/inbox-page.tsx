// The messaging screen (spec 000 §2 business area; ADR 037, 052): the install picker, the conversations of
// the chosen install (filters, search over every contact, paging, unread badges), the open conversation
// with its composer and its contact. On a desktop it is one screen of three panes as high as the window
// (only the panes scroll, the composer is always in view); on a phone one pane at a time: the list, the
// conversation (with a back button), the contact. The open conversation is in the address
// (`?contact=<id>`), and `?phone=<E.164>` opens (or starts) the conversation with that phone: the contact
// screens' "Text" action. Updates come from the realtime socket (lib/realtime.ts).
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Pagination,
  Paper,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useInstallOptions } from '../../lib/pickers.ts';
import { queryClient } from '../../lib/query-client.ts';
import { keys } from '../../lib/query-keys.ts';
import { textValue } from '../../lib/text-value.ts';
import {
  agentName,
  PER_PAGE,
  useContact,
  useConversations,
  useSmsAgents,
  useStartConversation,
} from './api/inbox.ts';
import { ContactPanel, EmailContactButton } from './contact-panel.tsx';
import { ConversationPane } from './conversation-pane.tsx';
import { NewConversation } from './new-conversation.tsx';
import { SendBox } from './send-box.tsx';
import { INBOX_TYPES, type InboxConversation, type InboxType } from './types.ts';

export const SEARCH_DEBOUNCE_MS = 250;
/** Mantine's `md`: three panes from here, one pane at a time below. */
const DESKTOP = '(min-width: 62em)';
/** The shell's padding under the screen (AppShell padding md). */
const BOTTOM_GAP = 16;

/**
 * The height from the element's top to the bottom of the window, kept as the window and banners change.
 * A callback ref: the element appears after the installs have loaded.
 */
function useFillHeight() {
  const [el, ref] = useState<HTMLDivElement | null>(null);
  const [height, setHeight] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (!el) return;
    const measure = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      setHeight(Math.max(280, Math.floor(window.innerHeight - top - BOTTOM_GAP)));
    };
    measure();
    window.addEventListener('resize', measure);
    // A banner above the screen appearing or going moves its top.
    const observer = new ResizeObserver(measure);
    if (el.parentElement) observer.observe(el.parentElement);
    return () => {
      window.removeEventListener('resize', measure);
      observer.disconnect();
    };
  }, [el]);
  return { ref, height };
}

/**
 * A pane's part that takes the height left and scrolls alone: absolutely placed in a flexible box, so its
 * height is the box's whatever the content (a percentage height of a flex item's child is not reliable).
 */
function Fill({ children }: { children: ReactNode }) {
  return (
    <Box style={{ flex: 1, minHeight: 0, position: 'relative' }}>
      <Box style={{ position: 'absolute', inset: 0 }}>{children}</Box>
    </Box>
  );
}

/** The list row's second line: the last text, or the last call (its kind and outcome) when it is newer. */
function usePreview(c: InboxConversation): string {
  const { t } = useTranslation();
  const text = c.last_message
    ? c.last_message.body || (c.last_message.has_media ? t('inbox.image') : '')
    : null;
  const call = c.last_call
    ? t('inbox.call_preview', {
        kind: t(`inbox.call_kind.${c.last_call.kind}`, { defaultValue: c.last_call.kind }),
        outcome: t(`inbox.call_outcome.${c.last_call.outcome}`, { defaultValue: c.last_call.outcome }),
      })
    : null;
  if (call && (!text || (c.last_call && c.last_call.at > (c.last_message_at ?? '')))) return `☎ ${call}`;
  return text ?? t('inbox.no_messages');
}

function ConversationRow({
  c,
  active,
  agent,
  otherInstall,
  onOpen,
}: {
  c: InboxConversation;
  active: boolean;
  agent: string | null;
  otherInstall: boolean;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const preview = usePreview(c);
  return (
    <UnstyledButton onClick={onOpen} w="100%" data-testid={`conversation-${c.id}`}>
      <Paper p="xs" withBorder bg={active ? 'blue.0' : undefined}>
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Group gap={4}>
              {c.on_top && (
                <Badge size="xs" color="grape">
                  {t('inbox.contact.on_top')}
                </Badge>
              )}
              <Text size="sm" fw={c.unread > 0 ? 700 : 500} truncate>
                {c.name}
              </Text>
            </Group>
            <Text size="xs" c="dimmed" truncate data-testid="conversation-preview">
              {preview}
            </Text>
            {otherInstall && (
              <Text size="xs" c="dimmed" truncate>
                {t('inbox.other_install')}
              </Text>
            )}
            {agent && (
              <Text size="xs" c="blue" truncate data-testid="assigned-agent">
                {t('inbox.assigned', { name: agent })}
              </Text>
            )}
          </Stack>
          {c.unread > 0 && (
            <Badge color="red" circle={c.unread < 10} data-testid="unread-badge">
              {c.unread}
            </Badge>
          )}
        </Group>
      </Paper>
    </UnstyledButton>
  );
}

export default function InboxPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const desktop = useMediaQuery(DESKTOP, true, { getInitialValueInEffect: false });
  const { ref, height } = useFillHeight();
  const installs = useInstallOptions();
  const active = useMemo(() => (installs.data ?? []).filter((i) => i.active), [installs.data]);
  const installId = params.installId ? Number(params.installId) : (active[0]?.id ?? null);

  const [type, setType] = useState<InboxType>('all');
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  /** On a phone: the contact pane instead of the conversation. */
  const [contactPane, setContactPane] = useState(false);
  /** A text the composer takes (text back after a missed call); the nonce makes each click count. */
  const [draft, setDraft] = useState<{ text: string; nonce: number } | null>(null);
  const openId = Number(search.get('contact')) || null;

  const open = (id: number | null, install = installId) => {
    setContactPane(false);
    setDraft(null);
    const next = id ? `?contact=${id}` : '';
    if (install && install !== installId)
      navigate(`${pathOf('business.messaging', { installId: String(install) })}${next}`);
    else setSearch(id ? { contact: String(id) } : {});
  };

  // Another install, filter or search starts at page 1.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on these changes
  useEffect(() => setPage(1), [installId, type, debounced]);

  // `?phone=`: the conversation with that phone, opened or started on this install (the "Text" action).
  const start = useStartConversation(installId ?? 0);
  const phone = search.get('phone');
  const started = useRef<string | null>(null);
  useEffect(() => {
    if (!phone || !installId || started.current === phone) return;
    started.current = phone;
    start.mutate(
      { phone },
      {
        onSuccess: (res) => open(res.data.id, res.data.install_id ?? installId),
        onError: () => setSearch({}),
      },
    );
  });

  const list = useConversations(installId, { type, keyword: debounced, page });
  const contact = useContact(openId);
  // Opening a conversation marks it read on the server: the list's unread badges follow.
  const readAt = contact.dataUpdatedAt;
  useEffect(() => {
    if (readAt) void queryClient.invalidateQueries({ queryKey: keys.inbox.lists() });
  }, [readAt]);
  const agents = useSmsAgents(installId);
  const agentOf = (id: number | null) => {
    const a = id ? agents.data?.find((x) => x.id === id) : undefined;
    return a ? agentName(a) : null;
  };
  const rows = list.data?.data ?? [];
  const total = list.data?.meta?.total ?? rows.length;
  const pages = list.data?.meta?.last_page ?? Math.max(1, Math.ceil(total / PER_PAGE));

  if (installs.isLoading) return <Loader />;
  if (active.length === 0)
    return (
      <Stack>
        <Title order={3}>{t('inbox.title')}</Title>
        <Text c="dimmed">{t('inbox.no_installs')}</Text>
      </Stack>
    );

  const c = contact.data;
  const warning = c?.opted_out ? t('inbox.send.opted_out') : c?.blocked ? t('inbox.send.blocked') : null;
  // On a phone one pane at a time: the list, else the conversation, else its contact.
  const pane: 'list' | 'conversation' | 'contact' = !openId
    ? 'list'
    : contactPane && c
      ? 'contact'
      : 'conversation';
  const shows = (p: typeof pane) => desktop || pane === p;

  const header = (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Title order={3}>{t('inbox.title')}</Title>
      <Group gap="xs" wrap="wrap">
        {installId && (
          <NewConversation installId={installId} onStarted={(id, install) => open(id, install)} />
        )}
        <Select
          aria-label={t('inbox.install')}
          data={active.map((i) => ({
            value: String(i.id),
            label: i.number ? `${i.name} (${i.number})` : i.name,
          }))}
          value={installId ? String(installId) : null}
          onChange={(v) => v && navigate(pathOf('business.messaging', { installId: v }))}
          allowDeselect={false}
          w={desktop ? 320 : 220}
          data-testid="install-picker"
        />
      </Group>
    </Group>
  );

  const listPane = (
    <Paper
      withBorder
      p="xs"
      w={desktop ? 320 : '100%'}
      style={{ display: 'flex', flexDirection: 'column', minHeight: 0, flexShrink: 0 }}
      data-testid="conversations-pane"
    >
      <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
        <SegmentedControl
          size="xs"
          fullWidth
          value={type}
          onChange={(v) => setType(v as InboxType)}
          data={INBOX_TYPES.map((v) => ({ value: v, label: t(`inbox.filter.${v}`) }))}
        />
        <TextInput
          size="xs"
          placeholder={t('inbox.search')}
          aria-label={t('inbox.search')}
          {...textValue(keyword, setKeyword)}
        />
        <Fill>
          <ScrollArea h="100%" data-testid="conversations">
            <Stack gap={4}>
              {list.isLoading && <Loader size="sm" />}
              {list.isError && <Text c="red">{t('business.common.load_failed')}</Text>}
              {list.isSuccess && rows.length === 0 && (
                <Text c="dimmed" size="sm">
                  {t('inbox.no_conversations')}
                </Text>
              )}
              {rows.map((row) => (
                <ConversationRow
                  key={row.id}
                  c={row}
                  active={row.id === openId}
                  agent={agentOf(row.agent_user_id)}
                  otherInstall={row.install_id !== null && row.install_id !== installId}
                  onOpen={() => open(row.id, row.install_id ?? installId)}
                />
              ))}
            </Stack>
          </ScrollArea>
        </Fill>
        {pages > 1 && <Pagination size="sm" total={pages} value={page} onChange={setPage} />}
      </Stack>
    </Paper>
  );

  const conversationPane = (
    <Paper
      withBorder
      style={{ flex: 1, minWidth: 0, minHeight: 0, display: 'flex', flexDirection: 'column' }}
      data-testid="conversation-pane"
    >
      {openId ? (
        <>
          <Group
            p="xs"
            gap="xs"
            wrap="nowrap"
            style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
          >
            {!desktop && (
              <ActionIcon
                variant="subtle"
                aria-label={t('inbox.back')}
                onClick={() => open(null)}
                data-testid="conversation-back"
              >
                ←
              </ActionIcon>
            )}
            <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
              <Text fw={600} size="sm" truncate data-testid="conversation-title">
                {c?.name ?? ''}
              </Text>
              {c && c.name !== c.phone && (
                <Text size="xs" c="dimmed">
                  {c.phone}
                </Text>
              )}
            </Stack>
            {c && <EmailContactButton contact={c} />}
            {!desktop && c && (
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => setContactPane(true)}
                data-testid="show-contact"
              >
                {t('inbox.show_contact')}
              </Button>
            )}
          </Group>
          <Fill>
            <ConversationPane
              contactId={openId}
              onTextBack={() => setDraft({ text: t('inbox.text_back_message'), nonce: Date.now() })}
            />
          </Fill>
          <SendBox contactId={openId} disabledReason={warning} draft={draft} />
        </>
      ) : (
        <Text c="dimmed" m="md">
          {t('inbox.pick_conversation')}
        </Text>
      )}
    </Paper>
  );

  const contactPanel = c && (
    <Paper
      withBorder
      w={desktop ? 300 : '100%'}
      style={{ display: 'flex', flexDirection: 'column', minHeight: 0, flexShrink: 0 }}
      data-testid="contact-pane"
    >
      {!desktop && (
        <Group p="xs">
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => setContactPane(false)}
            data-testid="contact-back"
          >
            ← {t('inbox.back_to_conversation')}
          </Button>
        </Group>
      )}
      <Fill>
        <ScrollArea h="100%">
          <Box p="sm">
            <ContactPanel contact={c} installId={c.install_id ?? installId ?? 0} />
          </Box>
        </ScrollArea>
      </Fill>
    </Paper>
  );

  return (
    <Stack
      ref={ref}
      gap="sm"
      h={height ?? undefined}
      style={{ overflow: 'hidden' }}
      data-testid="inbox"
      data-pane={desktop ? 'all' : pane}
    >
      {(desktop || pane === 'list') && header}
      <Group gap="sm" align="stretch" wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
        {shows('list') && listPane}
        {shows('conversation') && conversationPane}
        {shows('contact') && contactPanel}
      </Group>
    </Stack>
  );
}
