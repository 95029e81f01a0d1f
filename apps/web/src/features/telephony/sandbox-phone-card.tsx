import { Badge, Button, Card, Group, Image, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { TSandboxPhone } from '@stn/contracts/telephony';
import { useTranslation } from 'react-i18next';
import { type PhoneAction, usePhoneAction } from './api/sandbox-phones.ts';

const STATE_COLOR: Record<TSandboxPhone['state'], string> = {
  idle: 'gray',
  ringing: 'yellow',
  'in-call': 'green',
  voicemail: 'grape',
};

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;

/** How many of the last things heard a card shows. */
const HEARD_SHOWN = 6;

/** The phone at the other end of the phone's call: the one it is bridged with, else the caller or callee. */
export function otherParty(phone: TSandboxPhone): string | null {
  const call = phone.call;
  if (!call) return null;
  if (call.bridged_with) return call.bridged_with;
  return call.to === phone.number ? call.from : call.to;
}

/** A phone nobody has called yet, as the sandbox would show it. */
export function idlePhone(number: string, label: string): TSandboxPhone {
  return { number, label, installs: [], state: 'idle', call: null, texts: [] };
}

/**
 * One simulated phone: who it is, what it is doing, what it heard, a dial pad while it is asked for
 * digits, and the buttons a person uses on a phone.
 */
export function SandboxPhoneCard({
  phone,
  nameOf,
  kind,
}: {
  phone: TSandboxPhone;
  /** Who a number is, as the screen knows it (staff names, 'Visitor'), for the call's other end. */
  nameOf: (number: string) => string | null;
  kind: 'visitor' | 'staff' | 'other';
}) {
  const { t } = useTranslation();
  const action = usePhoneAction();
  const { number, state, call } = phone;
  const other = otherParty(phone);
  const otherText = other ? (nameOf(other) ? `${nameOf(other)} (${other})` : other) : '';
  const ringing = state === 'ringing';
  const busy = action.isPending;
  const act = (a: PhoneAction) => action.mutate({ number, action: a });
  const heard = call?.heard.slice(-HEARD_SHOWN) ?? [];
  // Idle after a call that said something (an automation's short message): what it said stays readable.
  const lastHeard = call ? [] : (phone.last_call?.heard.slice(-HEARD_SHOWN) ?? []);
  const testId = `sandbox-phone-${number.replace('+', '')}`;

  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      shadow={ringing ? 'md' : 'xs'}
      data-testid={testId}
      data-state={state}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
              {t(`sandbox_phones.kind.${kind}`)}
            </Text>
            <Text fw={600} data-testid="phone-label">
              {phone.label}
            </Text>
            <Text size="sm" c="dimmed" ff="monospace" data-testid="phone-number">
              {number}
            </Text>
          </div>
          <Badge color={STATE_COLOR[state]} variant={ringing ? 'filled' : 'light'} data-testid="phone-state">
            {t(`sandbox_phones.state.${state}`)}
          </Badge>
        </Group>

        <Text size="sm" data-testid="phone-status" mih="1.4em">
          {state === 'ringing' && t('sandbox_phones.status.ringing', { other: otherText })}
          {state === 'in-call' && t('sandbox_phones.status.in_call', { other: otherText })}
          {state === 'voicemail' && t('sandbox_phones.status.voicemail', { other: otherText })}
          {state === 'idle' && t('sandbox_phones.status.idle')}
        </Text>

        {heard.length > 0 && (
          <Paper withBorder radius="sm" p="xs" bg="var(--mantine-color-gray-0)" data-testid="phone-heard">
            <Text size="xs" c="dimmed" fw={700} mb={4}>
              {t('sandbox_phones.heard')}
            </Text>
            <Stack gap={2}>
              {heard.map((line, i) => (
                // Lines repeat ("press 1" twice): their place is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: a transcript, appended only
                <Text key={i} size="sm" fs="italic">
                  “{line}”
                </Text>
              ))}
            </Stack>
          </Paper>
        )}

        {lastHeard.length > 0 && (
          <Paper withBorder radius="sm" p="xs" data-testid="phone-last-heard">
            <Text size="xs" c="dimmed" fw={700} mb={4}>
              {t('sandbox_phones.last_heard')}
            </Text>
            <Stack gap={2}>
              {lastHeard.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a transcript, appended only
                <Text key={i} size="sm" fs="italic" c="dimmed">
                  “{line}”
                </Text>
              ))}
            </Stack>
          </Paper>
        )}

        {call?.gathering && (
          <div data-testid="phone-dialpad">
            <Text size="xs" c="dimmed" mb={4}>
              {t('sandbox_phones.press_hint')}
            </Text>
            <SimpleGrid cols={3} spacing={6} maw={220}>
              {KEYS.map((key) => (
                <Button
                  key={key}
                  variant="default"
                  size="sm"
                  disabled={busy}
                  onClick={() => action.mutate({ number, action: 'press', digits: key })}
                  data-testid={`press-${key}`}
                >
                  {key}
                </Button>
              ))}
            </SimpleGrid>
          </div>
        )}

        <Group gap="xs">
          <Button
            size="xs"
            color="green"
            disabled={!ringing || busy}
            onClick={() => act('answer')}
            data-testid="answer"
          >
            {t('sandbox_phones.answer')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="grape"
            disabled={!ringing || busy}
            onClick={() => act('voicemail')}
            data-testid="voicemail"
          >
            {t('sandbox_phones.voicemail')}
          </Button>
          <Button
            size="xs"
            color="red"
            disabled={!call || busy}
            onClick={() => act('hangup')}
            data-testid="hangup"
          >
            {t('sandbox_phones.hangup')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            disabled={!ringing || busy}
            onClick={() => act('reject')}
            data-testid="reject"
          >
            {t('sandbox_phones.reject')}
          </Button>
        </Group>

        {phone.texts.length > 0 && (
          <Stack gap={2} data-testid="phone-texts">
            <Text size="xs" c="dimmed" fw={700}>
              {t('sandbox_phones.texts')}
            </Text>
            {phone.texts.slice(-3).map((m) => (
              <Stack key={`${m.at}-${m.direction}-${m.other}`} gap={2}>
                <Text size="sm">
                  {m.direction === 'in' ? '←' : '→'} {m.other}: {m.body}
                </Text>
                {m.media && m.media.length > 0 && (
                  <Group gap={4}>
                    {m.media.map((url) => (
                      <Image
                        key={url}
                        src={ownPath(url)}
                        alt={t('sandbox_phones.picture')}
                        h={48}
                        w={48}
                        fit="cover"
                        radius="sm"
                        data-testid="phone-text-image"
                      />
                    ))}
                  </Group>
                )}
              </Stack>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/**
 * A picture the carrier fetched from this platform (an absolute /uploads/ URL of PUBLIC_URL) is shown from
 * the site the user is on, as an agency's own domain serves the same files.
 */
function ownPath(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname.startsWith('/uploads/') ? u.pathname : url;
  } catch {
    return url;
  }
}
