import { Badge, Box, Button, Group, Image, Loader, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { LeadSubmissionCard } from '../../components/lead-submission-card.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { carrierCodeText } from '../../lib/carrier-codes.ts';
import { useContactLeads } from '../../lib/lead-submissions.ts';
import { withLeads } from '../../lib/lead-timeline.ts';
import { useContactAction, useConversation } from './api/inbox.ts';
import { canCancel, canResend, messageErrorKey, statusColor } from './message-count.ts';
import type { ConversationItem, InboxMessage } from './types.ts';

const time = (iso: string) => new Date(iso).toLocaleString();

function MessageBubble({ message, contactId }: { message: InboxMessage; contactId: number }) {
  const { t } = useTranslation();
  const action = useContactAction(contactId);
  const out = message.direction === 'out';
  const errorKey = messageErrorKey(message.error_message);
  return (
    <Group
      justify={out ? 'flex-end' : 'flex-start'}
      data-testid={`message-${message.id}`}
      data-direction={message.direction}
    >
      <Paper p="xs" radius="md" bg={out ? 'blue.0' : 'gray.1'} maw="75%">
        <Stack gap={4}>
          {message.media.map((m) =>
            m.content_type.startsWith('image/') ? (
              <Image key={m.url} src={m.url} alt={m.name} maw={240} radius="sm" data-testid="message-image" />
            ) : (
              <a key={m.url} href={m.url} target="_blank" rel="noreferrer">
                {m.name}
              </a>
            ),
          )}
          {(message.media_pending ?? 0) > 0 && (
            <Group gap={6} data-testid="message-media-pending">
              <Loader size="xs" />
              <Text size="xs" c="dimmed">
                {t('inbox.media_pending', { count: message.media_pending })}
              </Text>
            </Group>
          )}
          {(message.media_unavailable ?? 0) > 0 && (
            <Text size="xs" c="dimmed" fs="italic" data-testid="message-media-unavailable">
              {t('inbox.media_unavailable', { count: message.media_unavailable })}
            </Text>
          )}
          {message.body && (
            <Text
              size="sm"
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
              data-testid="message-body"
            >
              {message.body}
            </Text>
          )}
          <Group gap={6} justify="flex-end">
            <Text size="xs" c="dimmed">
              {message.status === 'scheduled' && message.send_at
                ? time(message.send_at)
                : time(message.sent_at)}
            </Text>
            {out && (
              <Badge size="xs" color={statusColor(message.status)} data-testid="message-status">
                {t(`inbox.status.${message.status}`, { defaultValue: message.status })}
              </Badge>
            )}
          </Group>
          {(message.error_message || message.error_code) && (
            <Text size="xs" c="red" data-testid="message-error">
              {message.error_code ? `${message.error_code}: ` : ''}
              {/* The carrier's status callbacks carry the code only: its meaning in the user's language. */}
              {errorKey
                ? t(errorKey, { defaultValue: message.error_message })
                : message.error_message || (message.error_code ? carrierCodeText(message.error_code) : '')}
            </Text>
          )}
          {out && canResend(message.status) && (
            <Button
              size="compact-xs"
              variant="light"
              loading={action.isPending}
              data-testid="message-resend"
              onClick={() => action.mutate({ action: 'resend-messages', message_id: message.id })}
            >
              {t('inbox.resend')}
            </Button>
          )}
          {action.error && (
            // Why a resend or a cancel was refused (opted out since, the carrier had it after all...).
            <Text size="xs" c="red" role="alert" data-testid="message-action-refusal">
              {action.error instanceof ApiError ? action.error.message : t('inbox.send.failed')}
            </Text>
          )}
          {out && canCancel(message.status) && (
            <Button
              size="compact-xs"
              variant="light"
              color="red"
              loading={action.isPending}
              onClick={() => action.mutate({ action: 'cancel-schedule', message_id: message.id })}
            >
              {t('inbox.cancel_schedule')}
            </Button>
          )}
        </Stack>
      </Paper>
    </Group>
  );
}

/** Calls that reached nobody: the caller gets a "text back". */
const MISSED = new Set(['missed', 'no_answer', 'failed']);

function CallRow({
  item,
  onTextBack,
}: {
  item: Extract<ConversationItem, { kind: 'call' }>;
  onTextBack?: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const { call } = item;
  const missed = MISSED.has(call.outcome);
  return (
    <Group justify="center" gap="xs" data-testid={`call-${call.id}`} data-outcome={call.outcome}>
      <Badge variant="outline" color={missed ? 'red' : 'gray'} style={{ textTransform: 'none' }}>
        {'☎ '}
        {t('inbox.call_line', {
          kind: t(`inbox.call_kind.${call.kind}`, { defaultValue: call.kind }),
          outcome: t(`inbox.call_outcome.${call.outcome}`, { defaultValue: call.outcome }),
          when: time(item.at),
        })}
        {call.duration ? ` · ${call.duration}s` : ''}
        {call.agent_name ? ` · ${call.agent_name}` : ''}
      </Badge>
      {missed && onTextBack && (
        <Button size="compact-xs" variant="light" onClick={onTextBack} data-testid="text-back">
          {t('inbox.text_back')}
        </Button>
      )}
    </Group>
  );
}

/**
 * The history of one conversation: messages, calls and the contact's lead submissions (Target kind Lead,
 * merged in by time: lib/lead-submissions.ts) together, oldest first, scrolled to the newest; a missed call
 * offers "Text back" (`onTextBack` fills the composer).
 */
export function ConversationPane({ contactId, onTextBack }: { contactId: number; onTextBack?: () => void }) {
  const { t } = useTranslation();
  const history = useConversation(contactId);
  const leads = useContactLeads(contactId, 'inbox');
  const viewport = useRef<HTMLDivElement>(null);
  const items = withLeads(history.data ?? [], leads.data ?? []);
  const last = items.length;

  useEffect(() => {
    if (last >= 0) viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [last]);

  if (history.isLoading) return <Loader m="md" />;
  if (history.isError)
    return (
      <Text c="red" m="md">
        {t('business.common.load_failed')}
      </Text>
    );
  return (
    <ScrollArea h="100%" viewportRef={viewport} data-testid="conversation">
      <Stack gap="xs" p="xs">
        {items.length === 0 && (
          <Text c="dimmed" ta="center">
            {t('inbox.no_messages')}
          </Text>
        )}
        {items.map((item) =>
          item.kind === 'lead' ? (
            <Group key={`l${item.lead.id}`} justify="center">
              <Box w="100%" maw={460}>
                <LeadSubmissionCard lead={item.lead} compact />
              </Box>
            </Group>
          ) : item.kind === 'message' ? (
            <MessageBubble key={`m${item.message.id}`} message={item.message} contactId={contactId} />
          ) : (
            <CallRow key={`c${item.call.id}`} item={item} onTextBack={onTextBack} />
          ),
        )}
      </Stack>
    </ScrollArea>
  );
}
