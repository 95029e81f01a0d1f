import { Anchor, Button, Group, SegmentedControl } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { TAgency } from '@stn/contracts/agencies';
import {
  LANDING_LANGUAGES,
  LANDING_TEXT_KEYS,
  type TLandingTextKey,
  type TLandingTexts,
  ZLandingTexts,
} from '@stn/contracts/site';
import { z } from '@stn/contracts/zod';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormCard } from '../../components/form/form-section.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { loadLanguage } from '../../lib/i18n.ts';
import { LANDING_TEXT_DEFAULTS } from '../../lib/landing-texts.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useUpdateLandingTexts } from './api/agency-settings.ts';

// The agency's own landing texts (issue 23): for each language, one field per text the agency may replace,
// the default of that language as its placeholder. All three languages are one form and one save, so
// switching the language only changes which fields show; what was typed stays.

type Lang = (typeof LANDING_LANGUAGES)[number];
type Values = { landingTexts: Record<Lang, Record<TLandingTextKey, string>> };
const resolve = zodResolver(z.object({ landingTexts: ZLandingTexts }));
const LONG: readonly TLandingTextKey[] = ['subheadline', 'guarantee_text'];
// A label key ending in _one would read as a plural form to i18next (and to the locale tests).
const LABEL: Partial<Record<TLandingTextKey, string>> = {
  stats_one: 'stat_1',
  stats_two: 'stat_2',
  stats_three: 'stat_3',
};

function valuesOf(texts: TLandingTexts | undefined): Values {
  const of = (lang: Lang) =>
    Object.fromEntries(LANDING_TEXT_KEYS.map((k) => [k, texts?.[lang]?.[k] ?? ''])) as Record<
      TLandingTextKey,
      string
    >;
  return { landingTexts: { en: of('en'), es: of('es'), br: of('br') } };
}

/** The language of the first field with an error (landingTexts.<lang>.<key>), to show it. */
function languageOfErrors(errors: Record<string, unknown>): Lang | undefined {
  for (const path of Object.keys(errors)) {
    const lang = path.split('.')[1];
    if (LANDING_LANGUAGES.includes(lang as Lang)) return lang as Lang;
  }
  return undefined;
}

/** Every language's landing texts are loaded, for the placeholders (the app loads only the user's). */
function useAllLanguages() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    void Promise.all(LANDING_LANGUAGES.map((l) => loadLanguage(l))).then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);
  return ready;
}

export function LandingTextsForm({ agency }: { agency: TAgency }) {
  const { t, i18n } = useTranslation();
  const save = useUpdateLandingTexts();
  const ready = useAllLanguages();
  const [lang, setLang] = useState<Lang>('en');
  const form = useForm<Values>({
    initialValues: valuesOf(agency.branding.landingTexts),
    validate: resolve,
  });
  const showErrors = (errors: Record<string, unknown>) => {
    const first = languageOfErrors(errors);
    if (first) setLang(first);
  };
  const submit = form.onSubmit(
    (v) =>
      save.mutate(v.landingTexts, {
        onError: (err) => {
          if (applyServerErrors(form, err) && err instanceof ApiError) showErrors(err.body?.errors ?? {});
        },
      }),
    showErrors,
  );
  const reset = () => {
    for (const key of LANDING_TEXT_KEYS) form.setFieldValue(`landingTexts.${lang}.${key}`, '');
  };
  // The defaults of the chosen language, whatever the screen's own language is.
  const fixed = i18n.getFixedT(lang);
  const field = (key: TLandingTextKey) => {
    const props = {
      name: `landingTexts.${lang}.${key}`,
      label: t(`agency.landing_texts.keys.${LABEL[key] ?? key}`),
      placeholder: ready ? fixed(LANDING_TEXT_DEFAULTS[key]) : '',
      testId: `landing-text-${key}`,
    };
    return LONG.includes(key) ? (
      <TextareaField key={props.name} autosize minRows={2} maxRows={6} {...props} />
    ) : (
      <TextField key={props.name} {...props} />
    );
  };
  return (
    <FormCard
      form={form}
      onSubmit={submit}
      title={t('agency.landing_texts.title')}
      hint={t('agency.landing_texts.hint')}
      submitting={save.isPending}
      submitTestId="landing-texts-save"
      testId="landing-texts"
    >
      <Group justify="space-between">
        <SegmentedControl
          value={lang}
          onChange={(v) => setLang(v as Lang)}
          data={LANDING_LANGUAGES.map((l) => ({ value: l, label: t(`agency.landing_texts.languages.${l}`) }))}
          data-testid="landing-texts-language"
        />
        <Group gap="md">
          <Button variant="subtle" size="compact-sm" onClick={reset} data-testid="landing-texts-reset">
            {t('agency.landing_texts.reset')}
          </Button>
          <Anchor
            href={`${window.location.origin}/`}
            target="_blank"
            rel="noopener"
            size="sm"
            data-testid="landing-texts-view"
          >
            {t('agency.landing_texts.view')}
          </Anchor>
        </Group>
      </Group>
      {LANDING_TEXT_KEYS.map(field)}
    </FormCard>
  );
}
