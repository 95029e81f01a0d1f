import {
  ActionIcon,
  Button,
  ColorInput,
  Group,
  NumberInput,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { CALLING_TYPES, WEEKDAYS } from '@stn/contracts/installs';
import type { TAvailableNumber } from '@stn/contracts/telephony';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PhoneField } from '../../components/phone-field.tsx';
import { purchaseNumber, searchNumbers } from './api/installs.ts';
import { clockOptions, type InstallValues, MAX_AGENTS, takesCalls } from './install-values.ts';

// The sections of an install's settings (spec 000 §3 "Install"), each bound to the one install form: the
// wizard shows one per step, the edit screen all of them with a Save each.

type Form = UseFormReturnType<InstallValues>;

export function WebsiteSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        label={t('business.installs.fields.name')}
        description={t('business.installs.fields.name_hint')}
        required
        data-testid="install-name"
        {...form.getInputProps('name')}
      />
      <TextInput
        label={t('business.installs.fields.website')}
        placeholder="https://www.example.com"
        required
        data-testid="install-website"
        {...form.getInputProps('website')}
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
                <Table.Td>
                  <Select
                    aria-label={t('business.installs.fields.from')}
                    data={withCurrent(hours.from)}
                    disabled={!hours.open}
                    allowDeselect={false}
                    searchable
                    data-testid={`install-hours-${day}-from`}
                    {...form.getInputProps(`settings.hours.${day}.from`)}
                  />
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={t('business.installs.fields.to')}
                    data={withCurrent(hours.to)}
                    disabled={!hours.open}
                    allowDeselect={false}
                    searchable
                    data-testid={`install-hours-${day}-to`}
                    {...form.getInputProps(`settings.hours.${day}.to`)}
                  />
                </Table.Td>
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

export function LookSection({ form }: { form: Form }) {
  const { t } = useTranslation();
  const lang = form.values.settings.language;
  const texts = form.values.settings.texts[lang] ?? {};
  const setText = (name: string, value: string) => {
    const next = { ...texts, [name]: value };
    if (!value) delete next[name];
    form.setFieldValue('settings.texts', { ...form.values.settings.texts, [lang]: next });
  };
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ColorInput
          label={t('business.installs.fields.primary_color')}
          format="hex"
          data-testid="install-color-primary"
          {...form.getInputProps('settings.colors.primary')}
        />
        <ColorInput
          label={t('business.installs.fields.text_color')}
          format="hex"
          data-testid="install-color-text"
          {...form.getInputProps('settings.colors.text')}
        />
        <Select
          label={t('business.installs.fields.position')}
          data={(['bottom-right', 'bottom-left'] as const).map((p) => ({
            value: p,
            label: t(`business.installs.positions.${p}`),
          }))}
          allowDeselect={false}
          data-testid="install-position"
          {...form.getInputProps('settings.position')}
        />
      </SimpleGrid>
      <Text fw={500} size="sm">
        {t('business.installs.fields.texts', { language: t(`business.installs.languages.${lang}`) })}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {LOOK_TEXTS.map((name) => (
          <TextInput
            key={name}
            label={t(`business.installs.texts.${name}`)}
            placeholder={t(`business.installs.texts_default.${name}`)}
            value={texts[name] ?? ''}
            maxLength={500}
            onChange={(e) => setText(name, e.currentTarget.value)}
            data-testid={`install-text-${name}`}
          />
        ))}
      </SimpleGrid>
    </>
  );
}
