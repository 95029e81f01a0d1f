// business.installs.forms.create and .edit (installs/:install/forms/create, /:id/edit): an embedded form's
// wizard (issue 21, Mantine Stepper through components/wizard): 1 the name and the lead form, 2 the look
// (language, title, the install's style) with a preview, 3 after sending (a redirect, else the form's thanks
// text); leaving step 3 saves (POST or PUT), and step 4 shows the embed code from the answer.
//
// Test ids: ef-name, ef-lead-form, ef-create-lead-form, ef-language, ef-show-title, ef-use-install-style,
// ef-preview, ef-redirect, ef-thanks, embedded-embed-code, embedded-embed-copy; the wizard's wizard-next,
// wizard-back, wizard-confirm.
import { Alert, Anchor, Grid, NativeSelect, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import {
  publicLeadForm,
  type TEmbeddedForm,
  type TEmbeddedFormRequest,
  type TLeadLanguage,
  ZEmbeddedFormRequest,
} from '@stn/contracts/leadforms';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { Wizard, type WizardStep } from '../../components/wizard/wizard.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { issueText } from '../../lib/i18n.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useLeadFormOptions } from '../../lib/pickers.ts';
import { toastError, toastSuccess } from '../../lib/toast.ts';
import { useEmbeddedForm, useLeadForm, useSaveEmbeddedForm } from './api/leadforms.ts';
import { EmbedSnippet } from './embed-snippet.tsx';
import { formText, LeadFormPreview } from './lead-form-preview.tsx';

export default function EmbeddedFormWizardPage() {
  const params = useParams();
  const installId = Number(params.install ?? 0);
  const id = Number(params.id ?? 0);
  const form = useEmbeddedForm(installId, id);
  if (!id) return <EmbeddedFormWizard key="new" installId={installId} form={null} />;
  if (form.isError) return <LoadFailed message={form.error.message} testId="ef-load-error" />;
  if (!form.data) return <Loading />;
  return <EmbeddedFormWizard key={id} installId={installId} form={form.data} />;
}

type Values = {
  name: string;
  lead_form_id: number | null;
  active: boolean;
  settings: TEmbeddedFormRequest['settings'];
};

/** Which step holds a field (a 422 or a check sends the person back to it). */
const STEP_OF: Record<string, number> = {
  name: 0,
  lead_form_id: 0,
  'settings.language': 1,
  'settings.show_title': 1,
  'settings.use_install_style': 1,
  'settings.redirect_url': 2,
};

/** The problems of the request's fields, by path, in the user's language. */
export function embeddedProblems(v: Values): Record<string, string> {
  const parsed = ZEmbeddedFormRequest.safeParse({ ...v, lead_form_id: v.lead_form_id ?? undefined });
  const errors: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const at = issue.path.map(String).join('.');
      errors[at] ??= issueText(issue.message, issue.path);
    }
  return errors;
}

function EmbeddedFormWizard({ installId, form }: { installId: number; form: TEmbeddedForm | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(() => ({
    name: form?.name ?? '',
    lead_form_id: form?.lead_form_id ?? null,
    active: form?.active ?? true,
    settings: form?.settings ?? {
      language: 'auto',
      show_title: true,
      use_install_style: true,
      redirect_url: '',
    },
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [index, setIndex] = useState(0);
  const [saved, setSaved] = useState<TEmbeddedForm | null>(form);
  const [previewStep, setPreviewStep] = useState(0);
  const forms = useLeadFormOptions();
  const lead = useLeadForm(values.lead_form_id ?? 0);
  const save = useSaveEmbeddedForm(installId);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const setSetting = <K extends keyof Values['settings']>(key: K, value: Values['settings'][K]) => {
    setValues((v) => ({ ...v, settings: { ...v.settings, [key]: value } }));
    setErrors(({ [`settings.${key}`]: _gone, ...rest }) => rest);
  };

  /** Checks one step's fields: their messages shown, and whether it may be left. */
  const check = (step: number) => () => {
    const all = embeddedProblems(values);
    const mine = Object.fromEntries(Object.entries(all).filter(([k]) => (STEP_OF[k] ?? 0) === step));
    setErrors(mine);
    return Object.keys(mine).length === 0;
  };

  const languages: TLeadLanguage[] =
    lead.data?.languages ?? forms.data?.find((f) => f.id === values.lead_form_id)?.languages ?? [];
  const chosen = values.settings.language;
  const previewLang: TLeadLanguage =
    chosen !== 'auto' && languages.includes(chosen) ? chosen : (languages[0] ?? 'en');

  /** Leaving step 3 saves; a refused save goes back to the step of its first field, values kept. */
  const beforeNext = async (at: number): Promise<boolean> => {
    if (at !== 2) return true;
    const problems = embeddedProblems(values);
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      setIndex(Math.min(...Object.keys(problems).map((k) => STEP_OF[k] ?? 0)));
      return false;
    }
    try {
      const body = ZEmbeddedFormRequest.parse({ ...values, lead_form_id: values.lead_form_id ?? undefined });
      const res = await save.mutateAsync({ id: saved?.id ?? null, body });
      setSaved(res.data);
      toastSuccess(res.message || t('business.leadForms.embedded.saved'));
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'VALIDATION' && err.body?.errors) {
        const found: Record<string, string> = {};
        for (const [k, m] of Object.entries(err.body.errors)) if (m[0]) found[k] = m[0];
        setErrors(found);
        const steps = Object.keys(found).map((k) => STEP_OF[k] ?? 0);
        if (steps.length) setIndex(Math.min(...steps));
        else toastError(err.message);
      } else toastError(err instanceof Error ? err.message : String(err));
      return false;
    }
  };

  const list = pathOf('business.installs.forms', { install: installId });
  const formOptions = (forms.data ?? []).map((f) => ({ value: String(f.id), label: f.name }));
  // A form of an embedded form that has since been switched off is still shown as its own choice.
  if (
    form &&
    values.lead_form_id === form.lead_form_id &&
    !formOptions.some((o) => o.value === String(form.lead_form_id))
  )
    formOptions.push({ value: String(form.lead_form_id), label: form.lead_form_name });
  const createLink = (
    <Anchor
      component={Link}
      to={pathOf('business.leadForms.create')}
      target="_blank"
      size="sm"
      data-testid="ef-create-lead-form"
    >
      {t('business.leadForms.embedded.create_lead_form')}
    </Anchor>
  );

  const steps: WizardStep[] = [
    {
      key: 'form',
      label: t('business.leadForms.embedded.step_form'),
      validate: check(0),
      content: (
        <Stack>
          <TextInput
            label={t('business.leadForms.embedded.name')}
            description={t('business.leadForms.embedded.name_hint')}
            required
            value={values.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={errors.name}
            data-testid="ef-name"
          />
          <NativeSelect
            label={t('business.leadForms.embedded.lead_form')}
            required
            data={[{ value: '', label: t('business.leadForms.embedded.pick_form') }, ...formOptions]}
            value={values.lead_form_id ? String(values.lead_form_id) : ''}
            onChange={(e) => {
              const v = e.currentTarget.value;
              set('lead_form_id', v ? Number(v) : null);
              setPreviewStep(0);
            }}
            error={errors.lead_form_id}
            data-testid="ef-lead-form"
          />
          {forms.data && forms.data.length === 0 ? (
            <Alert color="yellow" data-testid="ef-no-forms">
              <Stack gap={4}>
                <Text size="sm">{t('business.leadForms.embedded.no_forms')}</Text>
                {createLink}
              </Stack>
            </Alert>
          ) : (
            createLink
          )}
        </Stack>
      ),
    },
    {
      key: 'look',
      label: t('business.leadForms.embedded.step_look'),
      validate: check(1),
      content: (
        <Grid gutter="lg" align="flex-start">
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack>
              <NativeSelect
                label={t('business.leadForms.embedded.language')}
                description={t('business.leadForms.embedded.language_hint')}
                data={[
                  { value: 'auto', label: t('business.leadForms.embedded.language_auto') },
                  ...languages.map((l) => ({ value: l, label: t(`business.leadForms.language_names.${l}`) })),
                ]}
                value={values.settings.language}
                onChange={(e) =>
                  setSetting('language', e.currentTarget.value as Values['settings']['language'])
                }
                error={errors['settings.language']}
                data-testid="ef-language"
              />
              <Switch
                label={t('business.leadForms.embedded.show_title')}
                checked={values.settings.show_title}
                onChange={(e) => setSetting('show_title', e.currentTarget.checked)}
                data-testid="ef-show-title"
              />
              <Switch
                label={t('business.leadForms.embedded.use_install_style')}
                description={t('business.leadForms.embedded.use_install_style_hint')}
                checked={values.settings.use_install_style}
                onChange={(e) => setSetting('use_install_style', e.currentTarget.checked)}
                data-testid="ef-use-install-style"
              />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap={4} data-testid="ef-preview">
              <Text size="sm" fw={500}>
                {t('business.leadForms.preview')}
              </Text>
              {lead.data ? (
                <LeadFormPreview
                  form={publicLeadForm(lead.data)}
                  lang={previewLang}
                  step={previewStep}
                  onStep={setPreviewStep}
                  showTitle={values.settings.show_title}
                  restartLabel={t('business.leadForms.preview_again')}
                  testId="ef-preview-form"
                />
              ) : (
                <Text size="sm" c="dimmed">
                  {t('business.leadForms.embedded.preview_none')}
                </Text>
              )}
            </Stack>
          </Grid.Col>
        </Grid>
      ),
    },
    {
      key: 'after',
      label: t('business.leadForms.embedded.step_after'),
      validate: check(2),
      content: (
        <Stack>
          <TextInput
            label={t('business.leadForms.embedded.redirect')}
            description={t('business.leadForms.embedded.redirect_hint')}
            placeholder="https://www.example.com/thanks"
            value={values.settings.redirect_url}
            onChange={(e) => setSetting('redirect_url', e.currentTarget.value)}
            error={errors['settings.redirect_url']}
            data-testid="ef-redirect"
          />
          {!values.settings.redirect_url.trim() && lead.data && (
            <Alert color="blue" title={t('business.leadForms.embedded.thanks_title')} data-testid="ef-thanks">
              {formText(lead.data, previewLang, 'thanks')}
            </Alert>
          )}
        </Stack>
      ),
    },
    {
      key: 'code',
      label: t('business.leadForms.embedded.step_code'),
      content: saved ? (
        <EmbedSnippet code={saved.embed_code} />
      ) : (
        <Text size="sm" c="dimmed">
          {t('business.leadForms.embedded.code_after_save')}
        </Text>
      ),
    },
  ];

  return (
    <Stack maw={960}>
      <div>
        <Anchor component={Link} to={list} size="sm">
          {t('business.leadForms.embedded.back')}
        </Anchor>
        <Title order={2} data-testid="page-title">
          {form
            ? t('business.leadForms.embedded.edit_title', { name: form.name })
            : t('business.leadForms.embedded.add')}
        </Title>
      </div>
      <Wizard
        steps={steps}
        active={index}
        onChange={setIndex}
        beforeNext={beforeNext}
        onConfirm={async () => navigate(list)}
        confirmLabel={t('business.leadForms.embedded.done')}
        testId="ef-wizard"
      />
    </Stack>
  );
}
