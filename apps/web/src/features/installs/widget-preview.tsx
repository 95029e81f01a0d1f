import { Alert, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { publicSettings, type TInstallSettings } from '@stn/contracts/installs';
import type { TWidgetConfig } from '@stn/contracts/widget';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../lib/auth-store.ts';

// The live preview of an install's widget (issue 11, ADR 039): the widget's own loader, loaded once with
// `data-preview` (it then only defines window.STNWidget), renders the opened widget inside the panel's
// element with the form's current values, again on every change (debounced). It calls no API.

type StnWidgetApi = { preview: (el: HTMLElement, config: TWidgetConfig) => Promise<void> | undefined };
const widgetApi = () => (window as unknown as { STNWidget?: Partial<StnWidgetApi> }).STNWidget;

const SCRIPT_SRC = '/widget.js';
const DEBOUNCE_MS = 250;
let loading: Promise<void> | null = null;

/** Loads the widget's loader in preview mode, once per page (a failed load may be tried again). */
export function loadWidgetApi(): Promise<void> {
  if (widgetApi()?.preview) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_SRC;
    script.async = true;
    script.dataset.preview = '';
    script.onload = () => (widgetApi()?.preview ? resolve() : reject(new Error('no STNWidget.preview')));
    script.onerror = () => reject(new Error(`${SCRIPT_SRC} did not load`));
    document.head.appendChild(script);
  }).catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

/** The widget's configuration as GET /v1/config would answer it for these settings. */
export function previewConfig(input: {
  id: number;
  businessName: string;
  settings: TInstallSettings;
  language: TInstallSettings['language'];
  logo: string | null;
  widgetIcon: string | null;
}): TWidgetConfig {
  const settings = publicSettings({ ...input.settings, language: input.language });
  return {
    id: input.id,
    business_name: input.businessName,
    widget_type: input.settings.widget_type,
    open_now: true,
    logo: input.logo,
    widget_icon: input.widgetIcon,
    settings,
    // The LeadLabel trigger shows when the widget opens a lead form (issue 21).
    lead_form_id: input.settings.is_enable_lead_form ? input.settings.lead_form_id : null,
  };
}

export function WidgetPreview(props: {
  installId: number | null;
  settings: TInstallSettings;
  logo?: string | null;
  widgetIcon?: string | null;
}) {
  const { t } = useTranslation();
  const business = useAuth().user?.business?.name ?? '';
  const el = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(Boolean(widgetApi()?.preview));
  const [failed, setFailed] = useState(false);
  const languages = [...new Set([props.settings.language, ...props.settings.languageList])];
  const [picked, setPicked] = useState<TInstallSettings['language'] | null>(null);
  const language = picked && languages.includes(picked) ? picked : props.settings.language;

  useEffect(() => {
    let live = true;
    loadWidgetApi().then(
      () => live && setReady(true),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  const config = JSON.stringify(
    previewConfig({
      id: props.installId ?? 0,
      businessName: business,
      settings: props.settings,
      language,
      logo: props.logo ?? null,
      widgetIcon: props.widgetIcon ?? null,
    }),
  );
  useEffect(() => {
    if (!ready || !el.current) return;
    const target = el.current;
    const timer = window.setTimeout(() => {
      // The loader's preview loads the widget's app chunk first: a failure there shows the message too.
      new Promise<void>((resolve) =>
        resolve(widgetApi()?.preview?.(target, JSON.parse(config) as TWidgetConfig)),
      ).catch(() => setFailed(true));
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [ready, config]);

  return (
    <Paper withBorder p="md" radius="md" data-testid="install-preview">
      <Stack gap="sm">
        <Text fw={600}>{t('business.installs.preview.title')}</Text>
        <Text size="xs" c="dimmed">
          {t('business.installs.preview.hint')}
        </Text>
        {languages.length > 1 && (
          <SegmentedControl
            size="xs"
            value={language}
            onChange={(v) => setPicked(v as TInstallSettings['language'])}
            data={languages.map((l) => ({ value: l, label: t(`business.installs.languages.${l}`) }))}
            data-testid="install-preview-language"
          />
        )}
        {failed ? (
          <Alert color="yellow" data-testid="install-preview-error">
            {t('business.installs.preview.unavailable')}
          </Alert>
        ) : (
          // A new element per language: the widget starts in the configured language (a visitor's pick
          // inside it is the widget's own state), so switching here starts it afresh.
          <div key={language} ref={el} data-testid="install-preview-widget" data-language={language} />
        )}
      </Stack>
    </Paper>
  );
}
