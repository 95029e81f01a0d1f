import {
  Alert,
  Autocomplete,
  Button,
  Checkbox,
  Chip,
  CloseButton,
  CopyButton,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  ACTION_OUTPUTS,
  ALERT_CHANNELS,
  AUTOMATION_CONTACT_FIELDS,
  CALL_OUTCOMES,
  CONDITION_KINDS,
  type TAutomationProblem,
  type TBlock,
  TRIGGER_KINDS,
  type TTriggerKind,
  WAIT_UNITS,
  WEBHOOK_CONTACT_FIELDS,
} from '@stn/contracts/automations';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MediaLibraryModal } from '../../components/media-library-modal.tsx';
import { useMediaLibrary } from '../../lib/media-library.ts';
import {
  useInstallOptions,
  useSmsTemplateOptions,
  useTagOptions,
  useTeamMembers,
} from '../../lib/pickers.ts';
import { useAutomationRefs, useTestEmail, useTestSms, useWebhookUrl } from './api/automations.ts';
import {
  connect,
  type Draft,
  defaultTriggerConfig,
  problemsAt,
  removeBlock,
  setConfig,
  TRIGGER_NODE,
} from './graph.ts';
import { problemText } from './problem-text.ts';

// The side panel: the form of the node picked on the canvas (the trigger's, or a block's), each field
// bound to the draft, its problems under it once an activation was asked; and where each output leads.

type Update = (update: (d: Draft) => Draft) => void;
type Config = Record<string, unknown>;

const LANGUAGES = ['en', 'es', 'br'] as const;
const DAYS = [0, 1, 2, 3, 4, 5, 6] as const;
const MERGE = { f1: '{first_name}', f2: '{last_name}', f3: '{phone}', f4: '{review_link}' };

/** The message of the first problem at `field` (or under it), or null. */
function errorAt(problems: readonly TAutomationProblem[], field: string): string | null {
  const p = problems.find((x) => x.field === field || x.field?.startsWith(`${field}.`));
  return p ? problemText(p) : null;
}

const ids = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function SidePanel(props: {
  draft: Draft;
  onChange: Update;
  selected: string | null;
  onSelect: (id: string | null) => void;
  problems: readonly TAutomationProblem[];
  automationId: number;
}) {
  const { t } = useTranslation();
  const { draft, selected } = props;
  const block = draft.blocks.find((b) => b.id === selected);
  if (selected === TRIGGER_NODE) return <TriggerForm {...props} />;
  if (!block)
    return (
      <Paper withBorder p="md" radius="md" data-testid="automation-panel-empty">
        <Text size="sm" c="dimmed">
          {t('business.automations.panel_hint')}
        </Text>
      </Paper>
    );
  return <BlockForm key={block.id} {...props} block={block} />;
}

// ---------------------------------------------------------------- the trigger

const INSTALL_TRIGGERS: readonly TTriggerKind[] = ['missed-call', 'completed-call', 'sms-keyword'];
const TAG_TRIGGERS: readonly TTriggerKind[] = ['new-tag', 'date'];

function TriggerForm(props: {
  draft: Draft;
  onChange: Update;
  problems: readonly TAutomationProblem[];
  automationId: number;
}) {
  const { t } = useTranslation();
  const { draft, onChange } = props;
  const kind = draft.trigger.kind;
  const c = draft.trigger.config as Config;
  const problems = problemsAt(props.problems, TRIGGER_NODE);
  const setTrigger = (key: string, value: unknown) =>
    onChange((d) => ({ ...d, trigger: { ...d.trigger, config: { ...d.trigger.config, [key]: value } } }));
  const installs = useInstallOptions();
  const tags = useTagOptions();
  const tagData = (tags.data ?? []).map((x) => ({ value: String(x.id), label: x.name }));
  const webhook = kind === 'webhook' || kind === 'home-advisor';
  const url = useWebhookUrl(props.automationId, webhook);
  // A new automation keeps the fresh token it was shown, so its URL does not change when it is saved.
  const freshToken = webhook && !props.automationId ? url.data?.token : undefined;
  useEffect(() => {
    if (freshToken)
      onChange((d) => (d.webhook_token === freshToken ? d : { ...d, webhook_token: freshToken }));
  }, [freshToken, onChange]);

  return (
    <Paper withBorder p="md" radius="md" data-testid="trigger-form">
      <Stack gap="sm">
        <Title order={5}>{t('business.automations.trigger')}</Title>
        <NativeSelect
          label={t('business.automations.trigger_kind')}
          data={TRIGGER_KINDS.map((k) => ({ value: k, label: t(`business.automations.triggers.${k}`) }))}
          value={kind}
          onChange={(e) => {
            const next = e.currentTarget.value as TTriggerKind;
            onChange((d) => ({
              ...d,
              trigger: { ...d.trigger, kind: next, config: defaultTriggerConfig(next) },
            }));
          }}
          data-testid="trigger-kind"
        />
        <Text size="xs" c="dimmed">
          {t(`business.automations.trigger_hints.${kind}`)}
        </Text>
        {(kind === 'birthday' || kind === 'anniversary') && (
          <NativeSelect
            label={t('business.automations.hour')}
            data={Array.from({ length: 24 }, (_, h) => ({
              value: String(h),
              label: `${String(h).padStart(2, '0')}:00`,
            }))}
            value={String(c.hour ?? 9)}
            onChange={(e) => setTrigger('hour', Number(e.currentTarget.value))}
            error={errorAt(problems, 'hour')}
            data-testid="trigger-hour"
          />
        )}
        {kind === 'date' && (
          <TextInput
            type="datetime-local"
            label={t('business.automations.date_at')}
            value={str(c.at) ? toLocalInput(str(c.at)) : ''}
            onChange={(e) =>
              setTrigger('at', e.currentTarget.value ? new Date(e.currentTarget.value).toISOString() : '')
            }
            error={errorAt(problems, 'at')}
            data-testid="trigger-at"
          />
        )}
        {kind === 'sms-keyword' && (
          <>
            <TagsInput
              label={t('business.automations.keywords')}
              description={t('business.automations.keywords_hint')}
              value={ids(c.keywords)}
              onChange={(v) => setTrigger('keywords', v)}
              error={errorAt(problems, 'keywords')}
              data-testid="trigger-keywords"
            />
            <NativeSelect
              label={t('business.automations.match')}
              data={['exact', 'contains'].map((m) => ({
                value: m,
                label: t(`business.automations.matches.${m}`),
              }))}
              value={str(c.match) || 'exact'}
              onChange={(e) => setTrigger('match', e.currentTarget.value)}
              data-testid="trigger-match"
            />
          </>
        )}
        {INSTALL_TRIGGERS.includes(kind) && (
          <MultiSelect
            label={t('business.automations.installs')}
            placeholder={t('business.automations.installs_all')}
            data={(installs.data ?? []).map((i) => ({ value: String(i.id), label: i.name }))}
            value={draft.installs.map(String)}
            onChange={(v) => onChange((d) => ({ ...d, installs: v.map(Number) }))}
            error={errorAt(problems, 'installs')}
            clearable
            data-testid="trigger-installs"
          />
        )}
        {TAG_TRIGGERS.includes(kind) && (
          <MultiSelect
            label={t('business.automations.trigger_tags')}
            placeholder={t('business.automations.tags_any')}
            data={tagData}
            value={draft.tags.map(String)}
            onChange={(v) => onChange((d) => ({ ...d, tags: v.map(Number) }))}
            error={errorAt(problems, 'tags')}
            clearable
            data-testid="trigger-tags"
          />
        )}
        {webhook && (
          <Stack gap={4}>
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <TextInput
                label={t('business.automations.webhook_url')}
                value={url.data?.url ?? ''}
                readOnly
                style={{ flex: 1 }}
                data-testid="trigger-webhook-url"
              />
              <CopyButton value={url.data?.url ?? ''}>
                {({ copied, copy }) => (
                  <Button variant="light" onClick={copy} data-testid="trigger-webhook-copy">
                    {copied ? t('business.automations.copied') : t('business.automations.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text size="xs" c="dimmed">
              {t(`business.automations.webhook_hints.${kind}`)}
            </Text>
          </Stack>
        )}
        {kind === 'webhook' && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('business.automations.mapping')}
            </Text>
            {WEBHOOK_CONTACT_FIELDS.map((f) => {
              const mapping = (c.mapping ?? {}) as Record<string, string>;
              return (
                <TextInput
                  key={f}
                  size="xs"
                  label={t(`business.automations.fields.${f}`)}
                  value={mapping[f] ?? ''}
                  onChange={(e) => setTrigger('mapping', { ...mapping, [f]: e.currentTarget.value })}
                  error={errorAt(problems, `mapping.${f}`)}
                  data-testid={`trigger-map-${f}`}
                />
              );
            })}
          </Stack>
        )}
        <ProblemList problems={problems.filter((p) => p.field === 'start' || p.field === null)} />
      </Stack>
    </Paper>
  );
}

/** A datetime-local input's value (the browser's time) for an ISO moment. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function ProblemList({ problems }: { problems: readonly TAutomationProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <Alert color="red" p="xs" data-testid="panel-problems">
      {problems.map((p) => (
        <Text key={`${p.field}|${p.message}`} size="xs">
          {problemText(p)}
        </Text>
      ))}
    </Alert>
  );
}

// ---------------------------------------------------------------- a block

function BlockForm(props: {
  draft: Draft;
  onChange: Update;
  onSelect: (id: string | null) => void;
  problems: readonly TAutomationProblem[];
  automationId: number;
  block: TBlock;
}) {
  const { t } = useTranslation();
  const { block, draft, onChange } = props;
  const problems = problemsAt(props.problems, block.id);
  const set = (key: string, value: unknown) => onChange((d) => setConfig(d, block.id, key, value));
  const others = draft.blocks.filter((b) => b.id !== block.id);
  const c = block.config as Config;
  const err = (f: string) => errorAt(problems, f);
  const bind = (key: string): Bound => ({
    value: str(c[key]),
    onChange: (e) => set(key, e.currentTarget.value),
    error: err(key),
    'data-testid': `cfg-${key}`,
  });
  const form = { c, set, err, bind, automationId: props.automationId };
  return (
    <Paper withBorder p="md" radius="md" data-testid={`block-form-${block.id}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={5}>{t(`business.automations.kinds.${block.type}`)}</Title>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={() => {
              onChange((d) => removeBlock(d, block.id));
              props.onSelect(null);
            }}
            data-testid="block-delete"
          >
            {t('business.automations.delete_block')}
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {t(`business.automations.kind_hints.${block.type}`)}
        </Text>
        <ConfigFields type={block.type} {...form} />
        {ACTION_OUTPUTS[block.type].map((o) => (
          <NativeSelect
            key={o}
            label={t('business.automations.output_to', { output: t(`business.automations.outputs.${o}`) })}
            data={[
              { value: '', label: t('business.automations.output_end') },
              ...others.map((b) => ({
                value: b.id,
                label: `${b.id} · ${t(`business.automations.kinds.${b.type}`)}`,
              })),
            ]}
            value={block.outputs[o] ?? ''}
            onChange={(e) => {
              const to = e.currentTarget.value || null;
              onChange((d) => connect(d, block.id, o, to));
            }}
            error={errorAt(problems, `outputs.${o}`)}
            data-testid={`output-${o}`}
          />
        ))}
        <ProblemList problems={problems.filter((p) => p.field === null)} />
      </Stack>
    </Paper>
  );
}

type FieldsProps = {
  type: TBlock['type'];
  c: Config;
  set: (key: string, value: unknown) => void;
  err: (field: string) => string | null;
  /** A text field's value, change, error and test id for config key `key`. */
  bind: (key: string) => Bound;
  automationId: number;
};
type Bound = {
  value: string;
  onChange: (e: { currentTarget: { value: string } }) => void;
  error: string | null;
  'data-testid': string;
};

function ConfigFields(props: FieldsProps) {
  const { t } = useTranslation();
  const { c, set, err, bind } = props;
  const L = (k: string) => t(`business.automations.config.${k}`);
  switch (props.type) {
    case 'SendMessage':
      return <SendMessageFields {...props} />;
    case 'SendCall':
    case 'SendVoiceMail':
      return <CallFields {...props} voicemail={props.type === 'SendVoiceMail'} />;
    case 'SendEmail':
      return <SendEmailFields {...props} />;
    case 'AddTag':
      return <AddTagFields {...props} />;
    case 'Webhook':
      return (
        <>
          <TextInput
            label={L('url')}
            value={str(c.url)}
            onChange={(e) => set('url', e.currentTarget.value)}
            error={err('url')}
            placeholder="https://"
            data-testid="cfg-url"
          />
          <Textarea
            label={L('headers')}
            description={L('headers_hint')}
            autosize
            minRows={2}
            defaultValue={Object.entries((c.headers ?? {}) as Record<string, string>)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')}
            onChange={(e) => set('headers', headersOf(e.currentTarget.value))}
            error={err('headers')}
            data-testid="cfg-headers"
          />
        </>
      );
    case 'Alert':
      return (
        <>
          <Checkbox.Group
            label={L('channels')}
            value={ids(c.channels)}
            onChange={(v) => set('channels', v)}
            error={err('channels')}
            data-testid="cfg-channels"
          >
            <Group gap="xs" mt={4}>
              {ALERT_CHANNELS.map((ch) => (
                <Checkbox
                  key={ch}
                  value={ch}
                  label={t(`business.automations.channels.${ch}`)}
                  data-testid={`cfg-channel-${ch}`}
                />
              ))}
            </Group>
          </Checkbox.Group>
          <AlertUsers value={ids(c.user_ids)} onChange={(v) => set('user_ids', v.map(Number))} err={err} />
          <Textarea
            label={L('alert_message')}
            description={L('alert_hint')}
            autosize
            minRows={2}
            {...bind('message')}
          />
        </>
      );
    case 'Wait':
      return (
        <WaitFields
          value={c}
          onChange={(w) => {
            set('amount', w.amount);
            set('unit', w.unit);
          }}
          err={err}
        />
      );
    case 'ProcessBetween':
      return (
        <>
          <Group grow>
            <TextInput type="time" label={L('from')} {...bind('from')} />
            <TextInput type="time" label={L('to')} {...bind('to')} />
          </Group>
          <Chip.Group multiple value={ids(c.days)} onChange={(v) => set('days', v.map(Number).sort())}>
            <Group gap={4} data-testid="cfg-days">
              {DAYS.map((d) => (
                <Chip key={d} value={String(d)} size="xs">
                  {t(`business.automations.days.${d}`)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {err('days') && (
            <Text size="xs" c="red">
              {err('days')}
            </Text>
          )}
          <TextInput
            label={L('time_zone')}
            placeholder={L('time_zone_business')}
            value={str(c.time_zone)}
            onChange={(e) => set('time_zone', e.currentTarget.value.trim() ? e.currentTarget.value : null)}
            error={err('time_zone')}
            data-testid="cfg-time_zone"
          />
        </>
      );
    case 'Condition':
      return <ConditionFields {...props} />;
    case 'AddToAutomation':
      return <AddToAutomationFields {...props} />;
    case 'CollectContactData':
      return (
        <>
          <Textarea label={L('question')} autosize minRows={2} {...bind('question')} />
          <FieldPicker
            label={L('store_in')}
            value={str(c.field)}
            onChange={(v) => set('field', v)}
            error={err('field')}
            testId="cfg-field"
          />
          <WaitFields
            label={L('answer_within')}
            value={(c.wait ?? {}) as Config}
            onChange={(w) => set('wait', w)}
            err={(f) => err(`wait.${f}`) ?? err('wait')}
          />
        </>
      );
  }
}

/** "Name: value" lines as headers. */
function headersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

function WaitFields(props: {
  label?: string;
  value: Config;
  onChange: (w: { amount: number; unit: string }) => void;
  err: (field: string) => string | null;
}) {
  const { t } = useTranslation();
  const amount = typeof props.value.amount === 'number' ? props.value.amount : 1;
  const unit = str(props.value.unit) || 'seconds';
  return (
    <Group grow align="flex-start">
      <NumberInput
        label={props.label ?? t('business.automations.config.wait')}
        min={1}
        allowDecimal={false}
        value={amount}
        onChange={(v) => props.onChange({ amount: typeof v === 'number' ? v : Number(v) || 0, unit })}
        error={props.err('amount')}
        data-testid="cfg-amount"
      />
      <NativeSelect
        label={t('business.automations.config.unit')}
        data={WAIT_UNITS.map((u) => ({ value: u, label: t(`business.automations.units.${u}`) }))}
        value={unit}
        onChange={(e) => props.onChange({ amount, unit: e.currentTarget.value })}
        error={props.err('unit')}
        data-testid="cfg-unit"
      />
    </Group>
  );
}

/** A contact field: a standard one, or a custom field's key typed in. */
function FieldPicker(props: {
  label: string;
  value: string;
  onChange: (v: string | null) => void;
  error: string | null;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Autocomplete
      label={props.label}
      description={t('business.automations.config.field_hint')}
      data={[...AUTOMATION_CONTACT_FIELDS]}
      value={props.value}
      onChange={(v) => props.onChange(v.trim() ? v.trim() : null)}
      error={props.error}
      data-testid={props.testId}
    />
  );
}

function SendMessageFields({ c, set, bind }: FieldsProps) {
  const { t } = useTranslation();
  const templates = useSmsTemplateOptions();
  const test = useTestSms();
  const [phone, setPhone] = useState('');
  return (
    <>
      <Textarea
        label={t('business.automations.config.body')}
        description={t('business.automations.config.merge_hint', MERGE)}
        autosize
        minRows={3}
        {...bind('body')}
      />
      <Select
        label={t('business.automations.config.template')}
        placeholder={t('business.automations.config.template_none')}
        data={(templates.data ?? []).map((x) => ({ value: String(x.id), label: x.name }))}
        value={c.template_id ? String(c.template_id) : null}
        onChange={(v) => set('template_id', v ? Number(v) : null)}
        clearable
        data-testid="cfg-template"
      />
      <MessageImages value={Array.isArray(c.media_ids) ? (c.media_ids as number[]) : []} set={set} />
      <TestBox
        label={t('business.automations.test_sms')}
        placeholder="+14155550100"
        value={phone}
        onValue={setPhone}
        pending={test.isPending}
        sent={test.isSuccess}
        testId="test-sms"
        onSend={() =>
          test.mutate({
            phone,
            body: str(c.body),
            template_id: typeof c.template_id === 'number' ? c.template_id : null,
            media_ids: Array.isArray(c.media_ids) ? (c.media_ids as number[]) : [],
          })
        }
      />
    </>
  );
}

/** Staff an Alert tells (none picked: the business's admins). */
function AlertUsers(props: { value: string[]; onChange: (v: string[]) => void; err: FieldsProps['err'] }) {
  const { t } = useTranslation();
  const team = useTeamMembers();
  return (
    <MultiSelect
      label={t('business.automations.config.alert_users')}
      description={t('business.automations.config.alert_users_hint')}
      data={(team.data ?? []).map((u) => ({
        value: String(u.id),
        label: `${u.first_name} ${u.last_name}`.trim() || u.email,
      }))}
      value={props.value}
      onChange={props.onChange}
      error={props.err('user_ids')}
      searchable
      clearable
      data-testid="cfg-users"
    />
  );
}

/** A SendMessage's images, picked from the business's media library (ADR 039), up to 10. */
function MessageImages({ value, set }: { value: number[]; set: FieldsProps['set'] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const library = useMediaLibrary(value.length > 0 || open);
  const names = new Map((library.data?.pages.flatMap((p) => p.data) ?? []).map((m) => [m.id, m.name]));
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text size="sm" fw={500}>
          {t('business.automations.config.images')}
        </Text>
        <Button
          size="xs"
          variant="light"
          onClick={() => setOpen(true)}
          disabled={value.length >= 10}
          data-testid="cfg-images-add"
        >
          {t('media_library.open')}
        </Button>
      </Group>
      {value.map((id) => (
        <Group key={id} gap="xs" data-testid={`cfg-image-${id}`}>
          <Text size="sm">{names.get(id) ?? `#${id}`}</Text>
          <CloseButton
            size="sm"
            aria-label={t('business.automations.config.image_remove')}
            onClick={() =>
              set(
                'media_ids',
                value.filter((x) => x !== id),
              )
            }
          />
        </Group>
      ))}
      <MediaLibraryModal
        opened={open}
        onClose={() => setOpen(false)}
        max={10 - value.length}
        onPick={(picked) => {
          set('media_ids', [...value, ...picked.map((m) => m.id).filter((id) => !value.includes(id))]);
          setOpen(false);
        }}
      />
    </Stack>
  );
}

function SendEmailFields({ c, bind }: FieldsProps) {
  const { t } = useTranslation();
  const test = useTestEmail();
  const [email, setEmail] = useState('');
  return (
    <>
      <TextInput label={t('business.automations.config.subject')} {...bind('subject')} />
      <Textarea
        label={t('business.automations.config.email_body')}
        description={t('business.automations.config.merge_hint', MERGE)}
        autosize
        minRows={4}
        {...bind('body')}
      />
      <TestBox
        label={t('business.automations.test_email')}
        placeholder="name@example.com"
        value={email}
        onValue={setEmail}
        pending={test.isPending}
        sent={test.isSuccess}
        testId="test-email"
        onSend={() => test.mutate({ email, subject: str(c.subject), body: str(c.body) })}
      />
    </>
  );
}

/** A test send: one phone or address, a button, and "sent" once the server took it. */
function TestBox(props: {
  label: string;
  placeholder: string;
  value: string;
  onValue: (v: string) => void;
  onSend: () => void;
  pending: boolean;
  sent: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          label={props.label}
          placeholder={props.placeholder}
          value={props.value}
          onChange={(e) => props.onValue(e.currentTarget.value)}
          style={{ flex: 1 }}
          data-testid={`${props.testId}-to`}
        />
        <Button
          variant="default"
          onClick={props.onSend}
          loading={props.pending}
          data-testid={`${props.testId}-send`}
        >
          {t('business.automations.test_send')}
        </Button>
      </Group>
      {props.sent && (
        <Text size="xs" c="green" data-testid={`${props.testId}-sent`}>
          {t('business.automations.test_sent')}
        </Text>
      )}
    </Stack>
  );
}

function CallFields({ c, set, err, bind, voicemail }: FieldsProps & { voicemail: boolean }) {
  const { t } = useTranslation();
  const mode = str(c.mode) || 'say';
  const library = useMediaLibrary(mode === 'recording');
  const media = library.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <>
      <SegmentedControl
        value={mode}
        onChange={(v) => set('mode', v)}
        data={[
          { value: 'say', label: t('business.automations.config.say') },
          { value: 'recording', label: t('business.automations.config.recording') },
        ]}
        data-testid="cfg-mode"
      />
      {mode === 'say' ? (
        <>
          <Textarea label={t('business.automations.config.text')} autosize minRows={2} {...bind('text')} />
          <NativeSelect
            label={t('business.automations.config.language')}
            data={LANGUAGES.map((l) => ({ value: l, label: t(`business.automations.languages.${l}`) }))}
            value={str(c.language) || 'en'}
            onChange={(e) => set('language', e.currentTarget.value)}
            data-testid="cfg-language"
          />
        </>
      ) : (
        <Select
          label={t('business.automations.config.recording_file')}
          data={media.map((m) => ({ value: String(m.id), label: m.name }))}
          value={c.media_id ? String(c.media_id) : null}
          onChange={(v) => set('media_id', v ? Number(v) : null)}
          error={err('text') ?? err('media_id')}
          data-testid="cfg-media"
        />
      )}
      {voicemail && (
        <Group grow>
          <TextInput type="time" label={t('business.automations.config.at')} {...bind('at')} />
          <TextInput label={t('business.automations.config.time_zone')} {...bind('time_zone')} />
        </Group>
      )}
    </>
  );
}

function AddTagFields({ c, set, err }: FieldsProps) {
  const { t } = useTranslation();
  const tags = useTagOptions();
  const data = (tags.data ?? []).map((x) => ({ value: String(x.id), label: x.name }));
  return (
    <>
      <MultiSelect
        label={t('business.automations.config.tags_add')}
        data={data}
        value={ids(c.add)}
        onChange={(v) => set('add', v.map(Number))}
        error={err('add')}
        searchable
        data-testid="cfg-add"
      />
      <MultiSelect
        label={t('business.automations.config.tags_remove')}
        data={data}
        value={ids(c.remove)}
        onChange={(v) => set('remove', v.map(Number))}
        error={err('remove')}
        searchable
        data-testid="cfg-remove"
      />
    </>
  );
}

function ConditionFields({ c, set, err, bind }: FieldsProps) {
  const { t } = useTranslation();
  const tags = useTagOptions();
  const kind = str(c.kind) || 'replied';
  return (
    <>
      <NativeSelect
        label={t('business.automations.config.condition')}
        data={CONDITION_KINDS.map((k) => ({ value: k, label: t(`business.automations.conditions.${k}`) }))}
        value={kind}
        onChange={(e) => set('kind', e.currentTarget.value)}
        error={err('kind')}
        data-testid="cfg-kind"
      />
      {kind === 'tag' && (
        <Select
          label={t('business.automations.config.tag')}
          data={(tags.data ?? []).map((x) => ({ value: String(x.id), label: x.name }))}
          value={c.tag_id ? String(c.tag_id) : null}
          onChange={(v) => set('tag_id', v ? Number(v) : null)}
          error={err('tag_id')}
          searchable
          data-testid="cfg-tag"
        />
      )}
      {(kind === 'field_equals' || kind === 'field_contains') && (
        <>
          <FieldPicker
            label={t('business.automations.config.field')}
            value={str(c.field)}
            onChange={(v) => set('field', v)}
            error={err('field')}
            testId="cfg-field"
          />
          <TextInput label={t('business.automations.config.value')} {...bind('value')} />
        </>
      )}
      {kind === 'replied' && (
        <>
          <Checkbox
            label={t('business.automations.config.within')}
            description={t('business.automations.config.within_hint')}
            checked={c.within != null}
            onChange={(e) => set('within', e.currentTarget.checked ? { amount: 1, unit: 'days' } : null)}
            data-testid="cfg-within"
          />
          {c.within != null && (
            <WaitFields
              value={c.within as Config}
              onChange={(w) => set('within', w)}
              err={(f) => err(`within.${f}`) ?? err('within')}
            />
          )}
        </>
      )}
      {kind === 'call_outcome' && (
        <NativeSelect
          label={t('business.automations.config.outcome')}
          data={[
            { value: '', label: '—' },
            ...CALL_OUTCOMES.map((o) => ({ value: o, label: t(`business.automations.outcomes.${o}`) })),
          ]}
          value={str(c.outcome)}
          onChange={(e) => set('outcome', e.currentTarget.value || null)}
          error={err('outcome')}
          data-testid="cfg-outcome"
        />
      )}
    </>
  );
}

function AddToAutomationFields({ c, set, err, automationId }: FieldsProps) {
  const { t } = useTranslation();
  const refs = useAutomationRefs();
  return (
    <Select
      label={t('business.automations.config.automation')}
      data={(refs.data ?? [])
        .filter((a) => a.id !== automationId)
        .map((a) => ({ value: String(a.id), label: a.name }))}
      value={c.automation_id ? String(c.automation_id) : null}
      onChange={(v) => set('automation_id', v ? Number(v) : undefined)}
      error={err('automation_id')}
      searchable
      data-testid="cfg-automation"
    />
  );
}
