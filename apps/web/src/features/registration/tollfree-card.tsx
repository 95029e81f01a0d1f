import { Alert, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  TOLLFREE_OPT_IN_TYPES,
  TOLLFREE_USE_CASES,
  TOLLFREE_VOLUMES,
  type TTollfreeVerification,
  ZTollfreeInput,
} from '@stn/contracts/registration';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FormProvider,
  MultiSelectField,
  SelectField,
  TextareaField,
  TextField,
} from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { zodResolver } from '../../lib/zod-form.ts';
import { submitTollfree, useTollfree } from './api/registration.ts';
import { CarrierStatusBadge, slug, useOptions } from './registration-parts.tsx';
import { type TollfreeValues, tollfreeRequestOf, tollfreeValuesOf } from './registration-values.ts';

// The toll-free verification of one install's number (GET/POST /v1/installs/:id/tollfree-verification,
// ADR 092): the form until one is sent, then its status; a rejected one shows the carrier's reason and
// error code and opens the form again, filled in, to fix and resubmit.

const FIELDS = [
  'business_name',
  'business_website',
  'notification_email',
  'use_case_categories',
  'use_case_summary',
  'production_message_sample',
  'opt_in_image_urls',
  'opt_in_type',
  'message_volume',
  'additional_information',
] as const;
/** An address's own message (opt_in_image_urls.1) shows at the field of all of them. */
const RENAME = Object.fromEntries(
  Array.from({ length: 5 }, (_, i) => [`opt_in_image_urls.${i}`, 'opt_in_image_urls']),
);

const resolve = zodResolver(ZTollfreeInput);

function TollfreeForm(props: {
  installId: number;
  verification: TTollfreeVerification | null;
  defaults: { name: string; email: string };
  onDone: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const { form, submit, submitting } = useApiForm<TollfreeValues>({
    initialValues: tollfreeValuesOf(props.verification, props.defaults),
    validate: (v) => resolve(tollfreeRequestOf(v)),
    fields: FIELDS,
    rename: RENAME,
    onSubmit: (v) => submitTollfree(props.installId, tollfreeRequestOf(v)),
    onSuccess: props.onDone,
  });
  const useCases = useOptions('tollfree_use_cases', TOLLFREE_USE_CASES);
  const optIns = useOptions('opt_in_types', TOLLFREE_OPT_IN_TYPES);
  const id = (s: string) => `tollfree-${props.installId}-${s}`;
  return (
    <FormProvider form={form}>
      <form onSubmit={submit} noValidate data-testid={id('form')}>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextField
              name="business_name"
              label={t('registration.fields.business_name')}
              required
              testId={id('business-name')}
            />
            <TextField
              name="business_website"
              label={t('registration.fields.website')}
              placeholder="https://"
              required
              testId={id('website')}
            />
            <TextField
              name="notification_email"
              label={t('registration.fields.notification_email')}
              required
              testId={id('email')}
            />
          </SimpleGrid>
          <MultiSelectField
            name="use_case_categories"
            label={t('registration.fields.use_case_categories')}
            data={useCases}
            required
            testId={id('use-cases')}
          />
          <TextareaField
            name="use_case_summary"
            label={t('registration.fields.use_case_summary')}
            description={t('registration.tollfree.summary_hint')}
            required
            testId={id('summary')}
          />
          <TextareaField
            name="production_message_sample"
            label={t('registration.fields.production_message_sample')}
            required
            testId={id('sample')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <SelectField
              name="opt_in_type"
              label={t('registration.fields.opt_in_type')}
              data={optIns}
              allowDeselect={false}
              required
              testId={id('opt-in-type')}
            />
            <SelectField
              name="message_volume"
              label={t('registration.fields.message_volume')}
              description={t('registration.tollfree.volume_hint')}
              data={TOLLFREE_VOLUMES.map((v) => ({ value: v, label: v }))}
              allowDeselect={false}
              required
              testId={id('volume')}
            />
          </SimpleGrid>
          <TextareaField
            name="opt_in_image_urls"
            label={t('registration.fields.opt_in_image_urls')}
            description={t('registration.tollfree.opt_in_hint')}
            placeholder="https://"
            required
            testId={id('opt-in-urls')}
          />
          <TextareaField
            name="additional_information"
            label={t('registration.fields.additional_information')}
            testId={id('additional')}
          />
          <FormActions
            submitting={submitting}
            submitTestId={id('submit')}
            submitLabel={
              props.verification ? t('registration.tollfree.resubmit') : t('registration.tollfree.submit')
            }
            {...(props.onCancel ? { onCancel: props.onCancel } : {})}
          />
        </Stack>
      </form>
    </FormProvider>
  );
}

/** One install's toll-free number: its verification's status, and the form where one is needed. */
export function TollfreeCard(props: {
  installId: number;
  installName: string;
  defaults: { name: string; email: string };
}) {
  const { t } = useTranslation();
  const q = useTollfree(props.installId);
  const [fixing, setFixing] = useState(false);
  const v = q.data?.verification ?? null;
  const rejected = v?.status === 'TWILIO_REJECTED';
  const title = t('registration.tollfree.title', {
    number: q.data?.number?.phone_number ?? '',
    install: props.installName,
  });
  return (
    <FormSection title={title} hint={t('registration.tollfree.hint')} testId={`tollfree-${props.installId}`}>
      {q.isError ? (
        <LoadFailed message={q.error.message} />
      ) : !q.data ? (
        <Loading />
      ) : (
        <>
          {v && (
            <Group gap="sm">
              <Text size="sm">{t('registration.tollfree.status')}</Text>
              <CarrierStatusBadge
                status={v.status}
                label={t(`registration.tollfree.status_label.${slug(v.status)}`)}
                testId={`tollfree-${props.installId}-status`}
              />
              <Text size="sm" c="dimmed" data-testid={`tollfree-${props.installId}-status-text`}>
                {t(`registration.tollfree.status_text.${slug(v.status)}`)}
              </Text>
            </Group>
          )}
          {rejected && (
            <Alert
              color="red"
              title={t('registration.tollfree.rejected_title')}
              data-testid={`tollfree-${props.installId}-rejected`}
            >
              <Stack gap="xs">
                <Text size="sm">
                  {v.rejection_reason ?? t('registration.tollfree.rejected_no_reason')}
                  {v.error_code !== null
                    ? ` (${t('registration.tollfree.error_code', { code: v.error_code })})`
                    : ''}
                </Text>
                {!fixing && (
                  <Group>
                    <Button
                      color="red"
                      onClick={() => setFixing(true)}
                      data-testid={`tollfree-${props.installId}-fix`}
                    >
                      {t('registration.tollfree.fix')}
                    </Button>
                  </Group>
                )}
              </Stack>
            </Alert>
          )}
          {(!v || (rejected && fixing)) && (
            <TollfreeForm
              key={v ? `fix-${v.id}-${v.updated_at}` : 'new'}
              installId={props.installId}
              verification={v}
              defaults={props.defaults}
              onDone={() => setFixing(false)}
              {...(v ? { onCancel: () => setFixing(false) } : {})}
            />
          )}
        </>
      )}
    </FormSection>
  );
}
