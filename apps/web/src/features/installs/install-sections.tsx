import {
  ActionIcon,
  Anchor,
  Button,
  ColorInput,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { CALLING_TYPES, SMS_NOTIFICATION_TYPES, WEEKDAYS } from '@stn/contracts/installs';
import type { TAvailableNumber } from '@stn/contracts/telephony';
import { WIDGET_LANGUAGES, WIDGET_TEXT_DEFAULTS, WIDGET_TEXT_KEYS } from '@stn/contracts/widget-texts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextField } from '../../components/form/fields.tsx';
import { PhoneField } from '../../components/phone-field.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useLeadFormOptions } from '../../lib/pickers.ts';
import { purchaseNumber, searchNumbers } from './api/installs.ts';
import { clockOptions, type InstallValues, MAX_AGENTS, takesCalls } from './install-values.ts';

// The sections of an install's settings (spec 000 §3 "Install"), each bound to the one install form: the
// wizard shows one per step, the edit screen all of them with a Save each.

type Form = UseFormReturnType<InstallValues>;

export function WebsiteSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        form={form}
        name="name"
        label={t('business.installs.fields.name')}
        description={t('business.installs.fields.name_hint')}
        required
        testId="install-name"
      />
      <TextField
        form={form}
        name="website"
        label={t('business.installs.fields.website')}
        placeholder="https://www.example.com"
        required
        testId="install-website"
      />
    </>
  );
}

export function WidgetTypeSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  const value = String(form.values.settings.widget_type);
  return (
    <>
      <Radio.Group
        label={t('business.installs.fields.widget_type')}
        value={value}
        onChange={(v) => form.setFieldValue('settings.widget_type', Number(v) as 1 | 2 | 3)}
        error={form.errors['settings.widget_type']}
      >
        <Stack gap="xs" mt="xs">
          {(['1', '2', '3'] as const).map((v) => (
            <Radio
              key={v}
              value={v}
              label={t(`business.installs.widget_types.${v}`)}
              data-testid={`install-widget-type-${v}`}
            />
          ))}
        </Stack>
      </Radio.Group>
      <Select
        label={t('business.installs.fields.language')}
        data={(['en', 'es', 'br'] as const).map((l) => ({
          value: l,
          label: t(`business.installs.languages.${l}`),
        }))}
        allowDeselect={false}
        data-testid="install-language"
        {...form.getInputProps('settings.language')}
      />
      <MultiSelect
        label={t('business.installs.fields.language_list')}
        data={WIDGET_LANGUAGES.map((l) => ({ value: l, label: t(`business.installs.languages.${l}`) }))}
        data-testid="install-language-list"
        {...form.getInputProps('settings.languageList')}
      />
    </>
  );
}

export function CallsSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  const agents = form.values.settings.phoneAgents;
  const calls = takesCalls(form.values.settings);
  return (
    <>
      {!calls && (
        <Text size="sm" c="dimmed" data-testid="install-calls-off">
          {t('business.installs.calls_off')}
        </Text>
      )}
      <Stack gap="xs">
        <Text fw={500} size="sm">
          {t('business.installs.fields.phone_agents')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('business.installs.fields.phone_agents_hint', { max: MAX_AGENTS })}
        </Text>
        {agents.map((_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a staff phone has no id; its inputs are controlled
          <Group key={`agent-${i}`} align="flex-start" wrap="nowrap" data-testid={`install-agent-${i}`}>
            <TextInput
              style={{ flex: 1 }}
              label={t('business.installs.fields.agent_name')}
              required
              data-testid={`install-agent-name-${i}`}
              {...form.getInputProps(`settings.phoneAgents.${i}.name`)}
            />
            <div style={{ flex: 1 }}>
              <PhoneField
                label={t('business.installs.fields.agent_phone')}
                required
                data-testid={`install-agent-phone-${i}`}
                {...form.getInputProps(`settings.phoneAgents.${i}.phone`)}
                value={agents[i]?.phone ?? ''}
              />
            </div>
            <ActionIcon
              mt={28}
              variant="subtle"
              color="red"
              aria-label={t('business.installs.remove_agent')}
              onClick={() => form.removeListItem('settings.phoneAgents', i)}
              data-testid={`install-agent-remove-${i}`}
            >
              ✕
            </ActionIcon>
          </Group>
        ))}
        {form.errors['settings.phoneAgents'] && (
          <Text size="sm" c="red" data-testid="install-agents-error">
            {form.errors['settings.phoneAgents']}
          </Text>
        )}
        <Group>
          <Button
            variant="light"
            size="xs"
            disabled={agents.length >= MAX_AGENTS}
            onClick={() =>
              form.insertListItem('settings.phoneAgents', { user_id: null, name: '', phone: '' })
            }
            data-testid="install-agent-add"
          >
            {t('business.installs.add_agent')}
          </Button>
        </Group>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('business.installs.fields.calling_type')}
          data={CALLING_TYPES.map((c) => ({ value: c, label: t(`business.installs.calling_types.${c}`) }))}
          allowDeselect={false}
          data-testid="install-calling-type"
          {...form.getInputProps('settings.calling_type')}
        />
        <NumberInput
          label={t('business.installs.fields.timeout')}
          description={t('business.installs.fields.timeout_hint')}
          min={10}
          max={300}
          data-testid="install-timeout"
          {...form.getInputProps('settings.timeout')}
        />
        <Select
          label={t('business.installs.fields.press_number')}
          data={['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']}
          allowDeselect={false}
          value={String(form.values.settings.press_number)}
          onChange={(v) => form.setFieldValue('settings.press_number', Number(v ?? 1))}
          error={form.errors['settings.press_number']}
          data-testid="install-press-number"
        />
      </SimpleGrid>
      <Textarea
        label={t('business.installs.fields.whisper')}
        description={t('business.installs.fields.whisper_hint')}
        autosize
        minRows={2}
        data-testid="install-whisper"
        {...form.getInputProps('settings.whisper')}
      />
      <Switch
        label={t('business.installs.fields.call_recording')}
        data-testid="install-recording"
        {...form.getInputProps('settings.call_recording', { type: 'checkbox' })}
      />
      <Switch
        label={t('business.installs.fields.voicemail_enabled')}
        data-testid="install-voicemail"
        {...form.getInputProps('settings.voicemail_enabled', { type: 'checkbox' })}
      />
      <Textarea
        label={t('business.installs.fields.missed_call_message')}
        autosize
        minRows={2}
        data-testid="install-missed-message"
        {...form.getInputProps('settings.missed_call_message')}
      />
    </>
  );
}

/**
 * The install's carrier number (step 3a): search the carrier's available numbers by area code and buy one
 * for the install. Buying needs the install to exist (the wizard creates it when leaving step 2).
 */
export function NumberSection(props: {
  installId: number | null;
  number: string | null;
  onBought?: (phoneNumber: string) => void;
}) {
  const { t } = useTranslation();
  const [areaCode, setAreaCode] = useState('');
  const [results, setResults] = useState<TAvailableNumber[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [buying, setBuying] = useState<string | null>(null);
  const [bought, setBought] = useState<string | null>(null);
  const current = bought ?? props.number;
  const areaValid = /^\d{3}$/.test(areaCode);

  const search = async () => {
    if (!areaValid) return;
    setSearching(true);
    try {
      setResults(await searchNumbers({ country: 'US', area_code: Number(areaCode) }));
    } catch {
      setResults(null);
    } finally {
      setSearching(false);
    }
  };
  const buy = async (phone: string) => {
    if (!props.installId) return;
    setBuying(phone);
    try {
      await purchaseNumber(props.installId, phone);
      setBought(phone);
      setResults(null);
      props.onBought?.(phone);
    } catch {
      // The API client showed the carrier's or the limit's message.
    } finally {
      setBuying(null);
    }
  };

  return (
    <>
      <Text size="sm" data-testid="install-number-current">
        {current
          ? t('business.installs.number_current', { number: current })
          : t('business.installs.number_none')}
      </Text>
      {!current && (
        <>
          <Group align="flex-end">
            <TextInput
              label={t('business.installs.fields.area_code')}
              placeholder="213"
              value={areaCode}
              maxLength={3}
              onChange={(e) => setAreaCode(e.currentTarget.value.replace(/\D/g, ''))}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  void search();
                }
              }}
              error={areaCode && !areaValid ? t('business.installs.errors.area_code') : undefined}
              data-testid="install-number-area"
            />
            <Button
              onClick={() => void search()}
              loading={searching}
              disabled={!areaValid}
              data-testid="install-number-search"
            >
              {t('business.installs.number_search')}
            </Button>
          </Group>
          {results && results.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="install-number-empty">
              {t('business.installs.number_empty')}
            </Text>
          )}
          {results && results.length > 0 && (
            <Paper withBorder>
              <Table data-testid="install-number-results">
                <Table.Tbody>
                  {results.map((n) => (
                    <Table.Tr key={n.phone_number}>
                      <Table.Td>{n.friendly_name || n.phone_number}</Table.Td>
                      <Table.Td>{[n.locality, n.region].filter(Boolean).join(', ')}</Table.Td>
                      <Table.Td ta="right">
                        <Button
                          size="xs"
                          onClick={() => void buy(n.phone_number)}
                          loading={buying === n.phone_number}
                          disabled={!props.installId || (buying !== null && buying !== n.phone_number)}
                          data-testid={`install-number-buy-${n.phone_number}`}
                        >
                          {t('business.installs.number_buy')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Paper>
          )}
          <Text size="xs" c="dimmed">
            {t('business.installs.number_later')}
          </Text>
        </>
      )}
    </>
  );
}

const TIMEZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf: (k: string) => string[] }).supportedValuesOf('timeZone');
  } catch {
    return ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'UTC'];
  }
})();

export function HoursSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  const tz = form.values.settings.timezone;
  const zones = TIMEZONES.includes(tz) ? TIMEZONES : [tz, ...TIMEZONES];
  return (
    <>
      <Select
        label={t('business.installs.fields.timezone')}
        data={zones}
        searchable
        allowDeselect={false}
        data-testid="install-timezone"
        {...form.getInputProps('settings.timezone')}
      />
      <Table>
        <Table.Tbody>
          {WEEKDAYS.map((day) => {
            const hours = form.values.settings.hours[day];
            const clock = clockOptions();
            const withCurrent = (v: string) => (clock.includes(v) ? clock : [v, ...clock]);
            return (
              <Table.Tr key={day} data-testid={`install-hours-${day}`}>
                <Table.Td w={160}>
                  <Switch
                    label={t(`business.installs.weekdays.${day}`)}
                    data-testid={`install-hours-${day}-open`}
                    {...form.getInputProps(`settings.hours.${day}.open`, { type: 'checkbox' })}
                  />
                </Table.Td>
                {(['from', 'to'] as const).map((end) => (
                  <Table.Td key={end}>
                    <Select
                      aria-label={t(`business.installs.fields.${end}`)}
                      data={withCurrent(hours[end])}
                      disabled={!hours.open}
                      allowDeselect={false}
                      searchable
                      data-testid={`install-hours-${day}-${end}`}
                      {...form.getInputProps(`settings.hours.${day}.${end}`)}
                    />
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </>
  );
}

/** Texts of the widget the wizard asks for, in the install's language (the rest keep the widget's own). */
export const LOOK_TEXTS = ['CallLabel', 'MessageLabel', 'title'] as const;

type Lang = (typeof WIDGET_LANGUAGES)[number];

/** One setting's field: where it is in the form, its label and its test id. */
type FieldProps = { form: Form; path: string; label: string; testId: string };

/** A colour setting (#RRGGBB). */
function ColorField({ form, path, label, testId }: FieldProps) {
  return <ColorInput label={label} format="hex" data-testid={testId} {...form.getInputProps(path)} />;
}

/** A whole-number setting within the server's bounds. */
function NumberField(props: FieldProps & { min: number; max: number }) {
  return (
    <NumberInput
      label={props.label}
      min={props.min}
      max={props.max}
      allowDecimal={false}
      allowNegative={false}
      data-testid={props.testId}
      {...props.form.getInputProps(props.path)}
    />
  );
}

function AlignField({ form, path, label, testId }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Select
      label={label}
      data={(['left', 'center', 'right'] as const).map((a) => ({
        value: a,
        label: t(`business.installs.aligns.${a}`),
      }))}
      allowDeselect={false}
      data-testid={testId}
      {...form.getInputProps(path)}
    />
  );
}

/** A whole-number style setting: its key and the server's bounds. */
type NumberSpec = readonly [key: string, min: number, max: number];
const ROUNDNESS: NumberSpec = ['Roudness', 0, 50];
const FONT_SIZE: NumberSpec = ['FontSize', 8, 48];
const PADDING: NumberSpec = ['Padding', 0, 100];

/**
 * One group of style settings (the trigger button's, the panel's, the fields', the answer's): its colours,
 * then its numbers, then its alignment, each named `settings.<group>.<key>`, labelled `<name>.<key>` and
 * tested as `install-<name>-<key>`.
 */
function StyleFields(props: {
  form: Form;
  group: string;
  name: string;
  colors: readonly string[];
  numbers: readonly NumberSpec[];
  align?: boolean;
}) {
  const { t } = useTranslation();
  const field = (key: string) => ({
    form: props.form,
    path: `settings.${props.group}.${key}`,
    label: t(`business.installs.fields.${props.name}.${key}`),
    testId: `install-${props.name}-${key}`,
  });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {props.colors.map((key) => (
        <ColorField key={key} {...field(key)} />
      ))}
      {props.numbers.map(([key, min, max]) => (
        <NumberField key={key} {...field(key)} min={min} max={max} />
      ))}
      {props.align && <AlignField {...field('Align')} />}
    </SimpleGrid>
  );
}

/**
 * One widget text of one language: empty means the widget's built-in text (shown as the placeholder). An
 * emptied text is saved as '' rather than left out: the server merges `texts` key by key, so a missing key
 * would keep the old text.
 */
function useTexts(form: Form) {
  return (lang: Lang) => {
    const texts = form.values.settings.texts[lang] ?? {};
    const set = (name: string, value: string) => {
      form.setFieldValue('settings.texts', {
        ...form.values.settings.texts,
        [lang]: { ...texts, [name]: value },
      });
    };
    return { texts, set };
  };
}

/** Colours, position, margins, the auto popup and the main texts; the trigger button's and panel's style. */
export function LookSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  const lang = form.values.settings.language;
  const { texts, set } = useTexts(form)(lang);
  const f = (key: string) => t(`business.installs.fields.${key}`);
  return (
    <Tabs defaultValue="general" keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="general" data-testid="install-look-tab-general">
          {t('business.installs.look_tabs.general')}
        </Tabs.Tab>
        <Tabs.Tab value="trigger" data-testid="install-look-tab-trigger">
          {t('business.installs.look_tabs.trigger')}
        </Tabs.Tab>
        <Tabs.Tab value="panel" data-testid="install-look-tab-panel">
          {t('business.installs.look_tabs.panel')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="general">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <ColorField
              form={form}
              path="settings.colors.primary"
              label={f('primary_color')}
              testId="install-color-primary"
            />
            <ColorField
              form={form}
              path="settings.colors.text"
              label={f('text_color')}
              testId="install-color-text"
            />
            <Select
              label={f('position')}
              data={(['bottom-right', 'bottom-left'] as const).map((p) => ({
                value: p,
                label: t(`business.installs.positions.${p}`),
              }))}
              allowDeselect={false}
              data-testid="install-position"
              {...form.getInputProps('settings.position')}
            />
            <div />
            <NumberField
              form={form}
              path="settings.margins.x"
              label={f('margin_x')}
              min={0}
              max={200}
              testId="install-margin-x"
            />
            <NumberField
              form={form}
              path="settings.margins.y"
              label={f('margin_y')}
              min={0}
              max={200}
              testId="install-margin-y"
            />
          </SimpleGrid>
          <Group align="flex-end">
            <Switch
              label={f('popup_auto')}
              data-testid="install-popup-auto"
              {...form.getInputProps('settings.popup.auto', { type: 'checkbox' })}
            />
            <NumberField
              form={form}
              path="settings.popup.delay"
              label={f('popup_delay')}
              min={0}
              max={600}
              testId="install-popup-delay"
            />
          </Group>
          <Text fw={500} size="sm">
            {t('business.installs.fields.texts', { language: t(`business.installs.languages.${lang}`) })}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {LOOK_TEXTS.map((name) => (
              <TextInput
                key={name}
                label={t(`business.installs.texts.${name}`)}
                placeholder={WIDGET_TEXT_DEFAULTS[lang][name]}
                value={texts[name] ?? ''}
                maxLength={500}
                onChange={(e) => set(name, e.currentTarget.value)}
                data-testid={`install-text-${name}`}
              />
            ))}
          </SimpleGrid>
        </Stack>
      </Tabs.Panel>
      <Tabs.Panel value="trigger">
        <StyleFields
          form={form}
          group="triggerButton"
          name="trigger"
          colors={['Color', 'BackgroundColor', 'HoverBackgroundColor']}
          numbers={[ROUNDNESS, FONT_SIZE, PADDING]}
          align
        />
      </Tabs.Panel>
      <Tabs.Panel value="panel">
        <StyleFields
          form={form}
          group="styling"
          name="styling"
          colors={['BackgroundColor', 'BorderColor']}
          numbers={[ROUNDNESS, ['MaxWidth', 200, 1200], PADDING]}
        />
      </Tabs.Panel>
    </Tabs>
  );
}

/** The visitor's fields (which are asked, required, checked), their look, and the consent boxes. */
export function FieldsSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  const f = (key: string) => t(`business.installs.fields.${key}`);
  const input = form.values.settings.input;
  const toggle = (key: keyof typeof input, disabled = false) => (
    <Switch
      key={key}
      label={f(`input.${key}`)}
      disabled={disabled}
      data-testid={`install-input-${key}`}
      {...form.getInputProps(`settings.input.${key}`, { type: 'checkbox' })}
    />
  );
  return (
    <>
      <Stack gap="xs">
        {toggle('IsEnableName')}
        {toggle('IsRequiredName', !input.IsEnableName)}
        {toggle('IsEnableNameValidation', !input.IsEnableName)}
        {toggle('IsEnableEmail')}
        {toggle('IsRequiredEmail', !input.IsEnableEmail)}
        <Switch
          label={f('gdpr_consent')}
          data-testid="install-gdpr"
          {...form.getInputProps('settings.gdpr_consent', { type: 'checkbox' })}
        />
        <Switch
          label={f('promotion_consent')}
          data-testid="install-promotion"
          {...form.getInputProps('settings.promotion_consent', { type: 'checkbox' })}
        />
      </Stack>
      <StyleFields
        form={form}
        group="input"
        name="input"
        colors={['BackgroundColor', 'Color', 'BorderColor']}
        numbers={[ROUNDNESS, PADDING]}
      />
    </>
  );
}

/** How the answer after a request looks, and the optional redirect to a page of the business's site. */
export function ResponseSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  const f = (key: string) => t(`business.installs.fields.${key}`);
  const redirect = form.values.settings.response.IsEnableRedirect;
  return (
    <>
      <StyleFields
        form={form}
        group="response"
        name="response"
        colors={['SuccessColor', 'ErrorColor']}
        numbers={[FONT_SIZE, PADDING]}
        align
      />
      <Switch
        label={f('response.IsEnableRedirect')}
        data-testid="install-response-IsEnableRedirect"
        {...form.getInputProps('settings.response.IsEnableRedirect', { type: 'checkbox' })}
      />
      {redirect && (
        <>
          <TextInput
            label={f('response.RedirectUrl')}
            placeholder="https://www.example.com/thank-you"
            maxLength={500}
            data-testid="install-response-RedirectUrl"
            {...form.getInputProps('settings.response.RedirectUrl')}
          />
          <Switch
            label={f('response.IsRedirectBlankPage')}
            data-testid="install-response-IsRedirectBlankPage"
            {...form.getInputProps('settings.response.IsRedirectBlankPage', { type: 'checkbox' })}
          />
        </>
      )}
    </>
  );
}

/** Every text of the widget, per language the install speaks; empty keeps the widget's own. */
const LONG_TEXTS = new Set(['call', 'sms', 'lead', 'exception', 'closed', 'gdpr', 'promotion']);

export function TextsSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  const textsOf = useTexts(form);
  const langs = [...new Set([form.values.settings.language, ...form.values.settings.languageList])];
  return (
    <>
      <Text size="xs" c="dimmed">
        {t('business.installs.texts_hint', { seconds: '{seconds}' })}
      </Text>
      <Tabs defaultValue={langs[0]} keepMounted={false}>
        <Tabs.List mb="md">
          {langs.map((l) => (
            <Tabs.Tab key={l} value={l} data-testid={`install-texts-lang-${l}`}>
              {t(`business.installs.languages.${l}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {langs.map((l) => {
          const { texts, set } = textsOf(l);
          return (
            <Tabs.Panel key={l} value={l}>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {WIDGET_TEXT_KEYS.map((name) => {
                  const common = {
                    label: t(`business.installs.texts.${name}`),
                    placeholder: WIDGET_TEXT_DEFAULTS[l][name],
                    value: texts[name] ?? '',
                    maxLength: 500,
                    'data-testid': `install-texts-${l}-${name}`,
                  };
                  return LONG_TEXTS.has(name) ? (
                    <Textarea
                      key={name}
                      autosize
                      minRows={2}
                      {...common}
                      onChange={(e) => set(name, e.currentTarget.value)}
                    />
                  ) : (
                    <TextInput key={name} {...common} onChange={(e) => set(name, e.currentTarget.value)} />
                  );
                })}
              </SimpleGrid>
            </Tabs.Panel>
          );
        })}
      </Tabs>
    </>
  );
}

/**
 * The widget's lead form (issue 21): a switch, the business's active lead form it opens from the LeadLabel
 * trigger, and a link to make one (a new tab, so nothing typed here is lost). Shown only to users who may
 * use lead forms.
 */
export function LeadFormSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  const forms = useLeadFormOptions();
  const s = form.values.settings;
  const data = (forms.data ?? []).map((f) => ({ value: String(f.id), label: f.name }));
  // A form switched off since it was picked still shows by its id, so the select does not look empty.
  if (s.lead_form_id && forms.data && !data.some((d) => d.value === String(s.lead_form_id)))
    data.push({ value: String(s.lead_form_id), label: t('business.installs.lead.inactive_form') });
  return (
    <>
      <Switch
        label={t('business.installs.lead.enable')}
        description={t('business.installs.lead.enable_hint')}
        checked={s.is_enable_lead_form}
        onChange={(e) => {
          form.setFieldValue('settings.is_enable_lead_form', e.currentTarget.checked);
          form.clearFieldError('settings.lead_form_id');
        }}
        data-testid="install-lead-enabled"
      />
      <NativeSelect
        label={t('business.installs.lead.form')}
        data={[{ value: '', label: t('business.installs.lead.pick') }, ...data]}
        value={s.lead_form_id ? String(s.lead_form_id) : ''}
        onChange={(e) => {
          const v = e.currentTarget.value;
          form.setFieldValue('settings.lead_form_id', v ? Number(v) : null);
          form.clearFieldError('settings.lead_form_id');
        }}
        error={form.errors['settings.lead_form_id']}
        required={s.is_enable_lead_form}
        data-testid="install-lead-form"
      />
      {forms.data && forms.data.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="install-lead-none">
          {t('business.installs.lead.none')}
        </Text>
      )}
      <Anchor
        component={Link}
        to={pathOf('business.leadForms.create')}
        target="_blank"
        size="sm"
        data-testid="install-lead-create"
      >
        {t('business.installs.lead.create')}
      </Anchor>
    </>
  );
}

const NOTIFICATION_TYPES = ['none', 'email', 'sms', 'both'] as const;

/**
 * Who hears of the install's missed calls, voicemails, leads and texts (ADR 082): the channels, their
 * addresses, and when an inbound text is worth a notice.
 */
export function NotifySection({ form }: { form: Form }) {
  const { t } = useTranslation();
  const type = form.values.settings.notification_type;
  return (
    <>
      <Select
        label={t('business.installs.notify.type')}
        description={t('business.installs.notify.type_hint')}
        data={NOTIFICATION_TYPES.map((v) => ({ value: v, label: t(`business.installs.notify.types.${v}`) }))}
        allowDeselect={false}
        data-testid="install-notification-type"
        {...form.getInputProps('settings.notification_type')}
      />
      {(type === 'email' || type === 'both') && (
        <TextInput
          label={t('business.installs.notify.email')}
          description={t('business.installs.notify.email_hint')}
          data-testid="install-notification-email"
          {...form.getInputProps('settings.notification_email')}
        />
      )}
      {(type === 'sms' || type === 'both') && (
        <PhoneField
          label={t('business.installs.notify.phone')}
          description={t('business.installs.notify.phone_hint')}
          data-testid="install-notification-phone"
          {...form.getInputProps('settings.notification_phone')}
          value={form.values.settings.notification_phone}
        />
      )}
      <Select
        label={t('business.installs.notify.sms_type')}
        data={SMS_NOTIFICATION_TYPES.map((v) => ({
          value: v,
          label: t(`business.installs.notify.sms_types.${v}`),
        }))}
        allowDeselect={false}
        disabled={type === 'none'}
        data-testid="install-sms-notification-type"
        {...form.getInputProps('settings.sms_notification_type')}
      />
    </>
  );
}
