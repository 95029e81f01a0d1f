import {
  TEMPLATE_MERGE_FIELDS,
  type TTemplate,
  type TTemplateProvider,
  ZTemplateRequest,
} from '@stn/contracts/templates';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { AiDraftButton } from '../../components/ai-draft-button.tsx';
import { SelectField, SwitchField, TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormShell } from '../../components/form/form-shell.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { useSaveTemplate, useTemplate } from './api/templates.ts';

type TemplateValues = { name: string; body: string; provider: TTemplateProvider; active: boolean };
const FIELDS = ['name', 'body', 'provider', 'active'] as const;
const resolve = zodResolver(ZTemplateRequest);

/** Add a template (business.templates.create) or edit one (business.templates.edit). */
export default function TemplateFormPage() {
  const id = Number(useParams().id ?? 0);
  const template = useTemplate(id);
  if (!id) return <TemplateForm key="new" template={null} />;
  if (template.isError) return <LoadFailed message={template.error.message} testId="template-load-error" />;
  if (!template.data) return <Loading />;
  return <TemplateForm key={template.data.id} template={template.data} />;
}

function TemplateForm({ template }: { template: TTemplate | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveTemplate(template?.id ?? null);
  const { form, submit } = useApiForm<TemplateValues>({
    initialValues: {
      name: template?.name ?? '',
      body: template?.body ?? '',
      provider: template?.provider ?? 'sms',
      active: template?.active ?? true,
    },
    validate: (v) => resolve(v),
    fields: FIELDS,
    onSubmit: (v) => save.mutateAsync(v),
    onSuccess: () => navigate(pathOf('business.templates')),
  });
  return (
    <FormShell
      form={form}
      title={template ? t('business.templates.edit') : t('business.templates.add')}
      back={{ label: t('business.templates.back'), to: pathOf('business.templates') }}
      onSubmit={submit}
      actions={
        <FormActions
          submitting={save.isPending}
          submitTestId="template-form-submit"
          cancelTo={pathOf('business.templates')}
        />
      }
    >
      <TextField name="name" label={t('business.templates.name')} required testId="template-form-name" />
      <SelectField
        name="provider"
        label={t('business.templates.provider')}
        data={[
          { value: 'sms', label: t('business.templates.providers.sms') },
          { value: 'email', label: t('business.templates.providers.email') },
        ]}
        allowDeselect={false}
        testId="template-form-provider"
      />
      <AiDraftButton kind="template" onDraft={(draft) => form.setFieldValue('body', draft)} />
      <TextareaField
        name="body"
        label={t('business.templates.body')}
        description={t('business.templates.body_hint', {
          fields: TEMPLATE_MERGE_FIELDS.map((f) => `{${f}}`).join(', '),
          custom: '{favourite_colour}',
          fallback: `{first_name|${t('business.templates.fallback_word')}}`,
        })}
        required
        minRows={4}
        testId="template-form-body"
      />
      <SwitchField name="active" label={t('business.common.active')} testId="template-form-active" />
    </FormShell>
  );
}
