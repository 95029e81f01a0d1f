import {
  Alert,
  Anchor,
  Button,
  Card,
  Divider,
  Grid,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { isOpenAt, type TInstallPick, WEEKDAYS } from '@stn/contracts/installs';
import type { TSandboxPhone } from '@stn/contracts/telephony';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/load-state.tsx';
import { PhoneField } from '../../components/phone-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { textValue } from '../../lib/text-value.ts';
import {
  type CallbackAnswer,
  useFromPhone,
  useInstallOptions,
  useRequestCallback,
  useSandboxPhones,
} from './api/sandbox-phones.ts';
import { FailingNumbersCard } from './failing-numbers-card.tsx';
import { SandboxClockCard } from './sandbox-clock-card.tsx';
import { idlePhone, SandboxPhoneCard } from './sandbox-phone-card.tsx';

/** The open days and hours of an install, consecutive days with the same hours together ("Mon–Fri 08:00AM–05:00PM"). */
function hoursText(hours: TInstallPick['hours'], language: string): string {
  // 2024-01-01 was a Monday: the weekday names in the user's language.
  const day = (i: number) =>
    new Intl.DateTimeFormat(language, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, 1 + i)),
    );
  const parts: string[] = [];
  let i = 0;
  while (i < WEEKDAYS.length) {
    const h = hours[WEEKDAYS[i] as (typeof WEEKDAYS)[number]];
    if (!h.open) {
      i++;
      continue;
    }
    let j = i;
    for (;;) {
      const next = hours[WEEKDAYS[j + 1] as (typeof WEEKDAYS)[number]];
      if (!next?.open || next.from !== h.from || next.to !== h.to) break;
      j++;
    }
    parts.push(`${j > i ? `${day(i)}–${day(j)}` : day(i)} ${h.from}–${h.to}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/**
 * business.sandbox-phones (ADR 030): while the agency uses the carrier sandbox, a person plays the
 * visitor's phone and the staff phones of an install and watches a callback happen live.
 */
export default function SandboxPhonesPage() {
  const { t, i18n } = useTranslation();
  const phones = useSandboxPhones();
  const installs = useInstallOptions();
  const [installId, setInstallId] = useState<number | null>(null);
  const chosen = installId ?? installs.data?.[0]?.id ?? null;
  // The install as the pickers know it (every business user may read them, ADR 047), and its staff
  // phones as the sandbox lists them: the screen needs no installs.use.
  const install = (installs.data ?? []).find((i) => i.id === chosen) ?? null;
  const [visitor, setVisitor] = useState<{ phone: string; name: string } | null>(null);

  const byNumber = useMemo(
    () => new Map((phones.data ?? []).map((p) => [p.number, p] as const)),
    [phones.data],
  );
  const agents = (phones.data ?? []).filter((p) => chosen !== null && p.installs.includes(chosen));
  const staffNumbers = new Set(agents.map((a) => a.number));
  const names = new Map<string, string>();
  for (const p of phones.data ?? []) names.set(p.number, p.label);
  if (visitor)
    names.set(
      visitor.phone,
      visitor.name ? `${t('sandbox_phones.visitor')} · ${visitor.name}` : t('sandbox_phones.visitor'),
    );
  if (install?.number) names.set(install.number, install.name);
  const nameOf = (n: string) => names.get(n) ?? null;
  const phoneOf = (number: string, label: string): TSandboxPhone => {
    const p = byNumber.get(number);
    return p ? { ...p, label: names.get(number) ?? p.label } : idlePhone(number, label);
  };
  const others = (phones.data ?? []).filter(
    (p) => !staffNumbers.has(p.number) && p.number !== visitor?.phone,
  );

  const pollError = phones.error instanceof ApiError ? phones.error : null;

  return (
    <Stack gap="lg">
      <div>
        <Title order={2} data-testid="page-title">
          {t('menu.sandbox_phones')}
        </Title>
        <Text c="dimmed" size="sm" maw={760}>
          {t('sandbox_phones.hint')}
        </Text>
        {install?.active && (
          <Text size="sm" mt={4}>
            <Anchor
              href={`/widget-demo?install=${encodeURIComponent(install.key)}`}
              target="_blank"
              rel="noopener"
              data-testid="open-widget-demo"
            >
              {t('sandbox_phones.widget_demo')}
            </Anchor>{' '}
            <Text span c="dimmed" size="sm">
              {t('sandbox_phones.widget_demo_hint')}
            </Text>
          </Text>
        )}
      </div>

      {install && !isOpenAt(install, new Date()) && (
        <Alert color="yellow" data-testid="sandbox-closed">
          {install.hours && Object.values(install.hours).some((d) => d.open)
            ? t('sandbox_phones.closed_now', {
                install: install.name,
                hours: hoursText(install.hours, i18n.language),
                zone: install.timezone,
              })
            : t('sandbox_phones.closed_always', { install: install.name })}
        </Alert>
      )}

      {pollError && (
        <Alert color="red" data-testid="sandbox-error">
          {pollError.code === 'NOT_FOUND'
            ? t('sandbox_phones.not_on')
            : pollError.code === 'NETWORK' || pollError.code === 'SERVER'
              ? t('sandbox_phones.offline')
              : pollError.message}
        </Alert>
      )}

      {installs.isPending ? (
        <Loading />
      ) : installs.data?.length === 0 ? (
        <Alert color="yellow" data-testid="sandbox-no-installs">
          {t('sandbox_phones.no_installs')}
        </Alert>
      ) : (
        <Grid gutter="lg" align="flex-start">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack>
              <VisitorForm
                installs={(installs.data ?? []).map((i) => ({ value: String(i.id), label: i.name }))}
                installId={chosen}
                installNumber={install?.number ?? null}
                onInstall={(id) => setInstallId(id)}
                onRequested={(phone, name) => setVisitor({ phone, name })}
              />
              {visitor && (
                <SandboxPhoneCard
                  kind="visitor"
                  phone={phoneOf(visitor.phone, names.get(visitor.phone) ?? t('sandbox_phones.visitor'))}
                  nameOf={nameOf}
                />
              )}
              <SandboxClockCard />
              <FailingNumbersCard />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack>
              <Group justify="space-between">
                <Title order={4}>{t('sandbox_phones.staff_title', { install: install?.name ?? '' })}</Title>
                {install?.number && (
                  <Text size="sm" c="dimmed">
                    {t('sandbox_phones.install_number', { number: install.number })}
                  </Text>
                )}
              </Group>
              {phones.isPending ? (
                <Loading />
              ) : agents.length === 0 ? (
                <Alert color="yellow" data-testid="sandbox-no-staff">
                  {t('sandbox_phones.no_staff')}
                </Alert>
              ) : (
                <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="staff-phones">
                  {agents.map((a) => (
                    <SandboxPhoneCard
                      key={a.number}
                      kind="staff"
                      phone={phoneOf(a.number, a.label)}
                      nameOf={nameOf}
                    />
                  ))}
                </SimpleGrid>
              )}
              {others.length > 0 && (
                <>
                  <Title order={4}>{t('sandbox_phones.others_title')}</Title>
                  <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="other-phones">
                    {others.map((p) => (
                      <SandboxPhoneCard key={p.number} kind="other" phone={p} nameOf={nameOf} />
                    ))}
                  </SimpleGrid>
                </>
              )}
            </Stack>
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}

/** The visitor's side: which install's widget, which phone, and the callback request. */
function VisitorForm({
  installs,
  installId,
  installNumber,
  onInstall,
  onRequested,
}: {
  installs: { value: string; label: string }[];
  installId: number | null;
  installNumber: string | null;
  onInstall: (id: number) => void;
  onRequested: (phone: string, name: string) => void;
}) {
  const { t } = useTranslation();
  const request = useRequestCallback();
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [answer, setAnswer] = useState<CallbackAnswer['data'] | null>(null);
  const error = request.error instanceof ApiError ? request.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (installId === null) return;
    setAnswer(null);
    request.mutate(
      { install_id: installId, phone, ...(name.trim() ? { name: name.trim() } : {}) },
      {
        onSuccess: (res) => {
          setAnswer(res.data);
          onRequested(phone, name.trim());
        },
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="md" component="form" onSubmit={submit} data-testid="visitor-form">
      <Stack gap="sm">
        <Title order={4}>{t('sandbox_phones.visitor_title')}</Title>
        <Select
          label={t('sandbox_phones.install')}
          data={installs}
          value={installId === null ? null : String(installId)}
          onChange={(v) => v && onInstall(Number(v))}
          allowDeselect={false}
          data-testid="visitor-install"
        />
        <PhoneField
          label={t('sandbox_phones.visitor_phone')}
          value={phone}
          onChange={setPhone}
          required
          error={error?.field('phone')}
          data-testid="visitor-phone"
        />
        <TextInput
          label={t('sandbox_phones.visitor_name')}
          {...textValue(name, setName)}
          maxLength={100}
          error={error?.field('name')}
          data-testid="visitor-name"
        />
        <Button
          type="submit"
          loading={request.isPending}
          disabled={!phone || installId === null}
          data-testid="request-callback"
        >
          {t('sandbox_phones.request')}
        </Button>
        {error && !error.field('phone') && !error.field('name') && (
          <Alert color="red" data-testid="callback-error">
            {error.message}
          </Alert>
        )}
        {answer?.status === 'calling' && (
          <Alert color="blue" data-testid="callback-answer">
            {t('sandbox_phones.calling', { seconds: answer.callback_seconds })}
          </Alert>
        )}
        {answer?.status === 'closed' && (
          <Alert color="yellow" data-testid="callback-answer">
            {t('sandbox_phones.closed')}
            {answer.next_slots.length > 0 && (
              <Text size="sm" mt={4}>
                {answer.next_slots.map((s) => formatDate(s, 'long')).join(' · ')}
              </Text>
            )}
          </Alert>
        )}
        {installNumber && phone && (
          <VisitorReach
            phone={phone}
            installNumber={installNumber}
            onUsed={() => onRequested(phone, name.trim())}
          />
        )}
      </Stack>
    </Card>
  );
}

/** The visitor's phone may also call or text the install's number, as a caller would. */
function VisitorReach({
  phone,
  installNumber,
  onUsed,
}: {
  phone: string;
  installNumber: string;
  onUsed: () => void;
}) {
  const { t } = useTranslation();
  const reach = useFromPhone();
  const [body, setBody] = useState('');
  const send = (text?: string) =>
    reach.mutate(
      { number: phone, to: installNumber, ...(text === undefined ? {} : { body: text }) },
      {
        onSuccess: () => {
          if (text !== undefined) setBody('');
          onUsed();
        },
      },
    );
  return (
    <Stack gap="xs" data-testid="visitor-reach">
      <Divider label={t('sandbox_phones.or_reach', { number: installNumber })} labelPosition="center" />
      <Button variant="light" loading={reach.isPending} onClick={() => send()} data-testid="visitor-dial">
        {t('sandbox_phones.call_number', { number: installNumber })}
      </Button>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          flex={1}
          label={t('sandbox_phones.text_label')}
          {...textValue(body, setBody)}
          maxLength={1600}
          data-testid="visitor-text"
        />
        <Button
          variant="light"
          disabled={!body.trim() || reach.isPending}
          onClick={() => send(body.trim())}
          data-testid="visitor-send-text"
        >
          {t('sandbox_phones.send_text')}
        </Button>
      </Group>
    </Stack>
  );
}
