// The messaging screen (spec 000 §2 business area; ADR 037): the install picker, the conversations of the
// chosen install (filters, search, paging, unread badges), the open conversation and its contact. Updates
// come from the realtime socket (lib/realtime.ts), which invalidates the inbox keys.
import {
  Badge,
  Grid,
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
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useInstallOptions } from '../../lib/pickers.ts';
import { queryClient } from '../../lib/query-client.ts';
import { keys } from '../../lib/query-keys.ts';
import { agentName, PER_PAGE, useContact, useConversations, useSmsAgents } from './api/inbox.ts';
import { ContactPanel } from './contact-panel.tsx';
import { ConversationPane } from './conversation-pane.tsx';
import { NewConversation } from './new-conversation.tsx';
import { SendBox } from './send-box.tsx';
import { INBOX_TYPES, type InboxConversation, type InboxType } from './types.ts';

export const SEARCH_DEBOUNCE_MS = 250;
const PANE_HEIGHT = 'calc(100vh - 260px)';

function ConversationRow({
  c,
  active,
  agent,
  onOpen,
}: {
  c: InboxConversation;
  active: boolean;
  agent: string | null;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const preview = c.last_message
    ? c.last_message.body || (c.last_message.has_media ? t('inbox.image') : '')
    : t('inbox.no_messages');
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
            <Text size="xs" c="dimmed" truncate>
              {preview}
            </Text>
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
  const installs = useInstallOptions();
  const active = useMemo(() => (installs.data ?? []).filter((i) => i.active), [installs.data]);
  const installId = params.installId ? Number(params.installId) : (active[0]?.id ?? null);

  const [type, setType] = useState<InboxType>('all');
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<number | null>(null);

  // Another install, filter or search starts at page 1 with nothing open.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on these changes
  useEffect(() => setPage(1), [installId, type, debounced]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on the install
  useEffect(() => setOpenId(null), [installId]);

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

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3}>{t('inbox.title')}</Title>
        <Group gap="xs">
          {installId && <NewConversation installId={installId} onStarted={setOpenId} />}
          <Select
            aria-label={t('inbox.install')}
            data={active.map((i) => ({
              value: String(i.id),
              label: i.number ? `${i.name} (${i.number})` : i.name,
            }))}
            value={installId ? String(installId) : null}
            onChange={(v) => v && navigate(pathOf('business.messaging', { installId: v }))}
            allowDeselect={false}
            w={320}
            data-testid="install-picker"
          />
        </Group>
      </Group>
      <Grid gutter="sm">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="xs">
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
              value={keyword}
              onChange={(e) => setKeyword(e.currentTarget.value)}
            />
            <ScrollArea h={PANE_HEIGHT} data-testid="conversations">
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
                    onOpen={() => setOpenId(row.id)}
                  />
                ))}
              </Stack>
            </ScrollArea>
            {pages > 1 && <Pagination size="sm" total={pages} value={page} onChange={setPage} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: c ? 5 : 8 }}>
          {openId ? (
            <Stack gap="xs">
              <Paper withBorder h={PANE_HEIGHT}>
                <ConversationPane contactId={openId} />
              </Paper>
              <SendBox contactId={openId} disabledReason={warning} />
            </Stack>
          ) : (
            <Text c="dimmed">{t('inbox.pick_conversation')}</Text>
          )}
        </Grid.Col>
        {c && installId && (
          <Grid.Col span={{ base: 12, md: 3 }}>
            <ContactPanel contact={c} installId={installId} />
          </Grid.Col>
        )}
      </Grid>
    </Stack>
  );
}
