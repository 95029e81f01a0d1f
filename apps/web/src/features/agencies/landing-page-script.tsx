import { Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TAgency, ZCustomScriptRequest } from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { TextareaField } from '../../components/form/fields.tsx';
import { FormCard } from '../../components/form/form-section.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useUpdateCustomScript } from './api/agency-settings.ts';
import { LandingTextsForm } from './landing-texts-form.tsx';
import { OptinList } from './optin-list.tsx';
import { WithOwnAgency } from './own-agency.tsx';

type Values = { custom_script: string };
const resolve = zodResolver(ZCustomScriptRequest);

/** The agency's landing page: its texts (PUT /v1/agencies/landing-texts), its custom script, its demo requests. */
export default function LandingPageScript() {
  const { t } = useTranslation();
  return (
    <Stack maw={860}>
      <Title order={2} data-testid="page-title">
        {t('menu.landing_page')}
      </Title>
      <WithOwnAgency>
        {(agency) => (
          <>
            <LandingTextsForm key={`texts-${agency.id}`} agency={agency} />
            <ScriptForm key={agency.id} agency={agency} />
          </>
        )}
      </WithOwnAgency>
      <OptinList />
    </Stack>
  );
}

function ScriptForm({ agency }: { agency: TAgency }) {
  const { t } = useTranslation();
  const save = useUpdateCustomScript();
  const form = useForm<Values>({
    initialValues: { custom_script: agency.branding.custom_script ?? '' },
    validate: resolve,
  });
  const submit = form.onSubmit((v) =>
    save.mutate(v.custom_script.trim() ? v.custom_script : null, {
      onError: (err) => applyServerErrors(form, err, ['custom_script']),
    }),
  );
  return (
    <FormCard
      form={form}
      onSubmit={submit}
      hint={t('agency.landing.hint')}
      submitting={save.isPending}
      submitTestId="agency-custom-script-save"
    >
      <TextareaField
        name="custom_script"
        label={t('agency.landing.custom_script')}
        minRows={10}
        maxRows={30}
        styles={{ input: { fontFamily: 'monospace' } }}
        spellCheck={false}
        testId="agency-custom-script"
      />
    </FormCard>
  );
}
