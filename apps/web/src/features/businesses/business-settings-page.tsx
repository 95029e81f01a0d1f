import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  FileButton,
  Group,
  Image,
  Loader,
  Stack,
  TagsInput,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import {
  REPORT_SCHEDULES,
  type TBusiness,
  ZBusinessInfoRequest,
  ZBusinessReportRequest,
} from '@stn/contracts/businesses';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormCard, FormSection } from '../../components/form/form-section.tsx';
import { GoogleLocationsCard } from '../../components/google-locations-card.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import {
  useOwnBusiness,
  useRemoveLogo,
  useUpdateBusinessInfo,
  useUpdateBusinessReport,
  useUploadLogo,
} from './api/business-settings.ts';
import { MailCard } from './mail-card.tsx';
import { NotificationSection } from './notification-section.tsx';
import { ZapierCard } from './zapier-card.tsx';

/** The business settings (route business.setting): information, reports, notifications and logo. */
export default function SettingPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const isAdmin = userCan(user, 'businessSettings.manage');
  const own = useOwnBusiness(isAdmin);
  const business = own.data;
  return (
    <Stack maw={760}>
      <Title order={2} data-testid="page-title">
        {t('business.setting.title')}
      </Title>
      {!isAdmin ? (
        <>
          <Alert color="yellow">{t('business.setting.admin_only')}</Alert>
          {userCan(user, 'emailAccounts.manage') && <MailCard smtpOnly />}
        </>
      ) : own.isPending ? (
        // The forms start from the stored record, so they wait for it.
        <Loader size="sm" />
      ) : (
        <>
          <InfoSection business={business} fallbackName={user?.business?.name ?? ''} />
          <MoreSettings />
          <ReportSection business={business} />
          <NotificationSection business={business} />
          <LogoSection business={business} />
          <MailCard />
          <GoogleLocationsCard />
          <ZapierCard />
        </>
      )}
    </Stack>
  );
}

/** Links to the settings that have a screen of their own (ADR 094). */
function MoreSettings() {
  const { t } = useTranslation();
  const links = [
    ['business.setting.contacts', 'business.setting.contacts_settings.link', 'setting-link-contacts'],
    ['business.setting.messages', 'business.setting.messages_settings.link', 'setting-link-messages'],
    ['business.setting.analytics', 'business.setting.analytics.title', 'setting-link-analytics'],
  ] as const;
  return (
    <FormSection title={t('business.setting.more')} hint={t('business.setting.more_hint')}>
      <Stack gap="xs">
        {links.map(([route, label, testId]) => (
          <Anchor key={route} component={Link} to={pathOf(route)} data-testid={testId}>
            {t(label)}
          </Anchor>
        ))}
      </Stack>
    </FormSection>
  );
}

type InfoValues = { name: string; opt_out_msg: string };
const resolveInfo = zodResolver(ZBusinessInfoRequest);
const infoRequest = (v: InfoValues) => ({ name: v.name, opt_out_msg: v.opt_out_msg.trim() || null });

function InfoSection({
  business,
  fallbackName,
}: {
  business: TBusiness | null | undefined;
  fallbackName: string;
}) {
  const { t } = useTranslation();
  const save = useUpdateBusinessInfo();
  const form = useForm<InfoValues>({
    initialValues: { name: business?.name ?? fallbackName, opt_out_msg: business?.opt_out_msg ?? '' },
    validate: (v) => resolveInfo(infoRequest(v)),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync(infoRequest(values));
      form.resetDirty();
    } catch (err) {
      applyServerErrors(form, err, ['name', 'opt_out_msg']);
    }
  });
  return (
    <FormCard
      form={form}
      onSubmit={submit}
      title={t('business.setting.info')}
      submitting={save.isPending}
      submitTestId="setting-info-save"
    >
      <TextField name="name" label={t('business.setting.name')} required testId="setting-name" />
      <TextareaField
        name="opt_out_msg"
        label={t('business.setting.opt_out_msg')}
        description={t('business.setting.opt_out_hint')}
        testId="setting-opt-out"
      />
    </FormCard>
  );
}

type ReportValues = { report_emails: string[]; report_schedules: string[] };
const resolveReport = zodResolver<ReportValues>(ZBusinessReportRequest);

function ReportSection({ business }: { business: TBusiness | null | undefined }) {
  const { t } = useTranslation();
  const save = useUpdateBusinessReport();
  const form = useForm<ReportValues>({
    initialValues: {
      report_emails: business?.report_emails ?? [],
      report_schedules: business?.report_schedules ?? [],
    },
    validate: resolveReport,
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync(values as Parameters<typeof save.mutateAsync>[0]);
      form.resetDirty();
    } catch (err) {
      applyServerErrors(form, err, ['report_emails', 'report_schedules']);
    }
  });
  return (
    <FormCard
      form={form}
      onSubmit={submit}
      title={t('business.setting.reports')}
      submitting={save.isPending}
      submitTestId="setting-report-save"
    >
      <TagsInput
        label={t('business.setting.report_emails')}
        description={t('business.setting.emails_hint')}
        data-testid="setting-report-emails"
        {...form.getInputProps('report_emails')}
      />
      <Checkbox.Group
        label={t('business.setting.report_schedules')}
        data-testid="setting-report-schedules"
        {...form.getInputProps('report_schedules')}
      >
        <Group mt="xs">
          {REPORT_SCHEDULES.map((s) => (
            <Checkbox
              key={s}
              value={s}
              label={t(`business.setting.schedules.${s}`)}
              data-testid={`setting-schedule-${s}`}
            />
          ))}
        </Group>
      </Checkbox.Group>
    </FormCard>
  );
}

const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

function LogoSection({ business }: { business: TBusiness | null | undefined }) {
  const { t } = useTranslation();
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const [error, setError] = useState<string | null>(null);
  const logo = typeof business?.settings.logo === 'string' ? business.settings.logo : null;

  const pick = (file: File | null) => {
    if (!file) return;
    setError(null);
    const reader = new FileReader();
    reader.onload = async () => {
      try {
        await upload.mutateAsync(String(reader.result ?? ''));
      } catch (err) {
        if (err instanceof ApiError) setError(err.field('data') ?? err.message);
      }
    };
    reader.readAsDataURL(file);
  };

  const confirmRemove = () =>
    modals.openConfirmModal({
      title: t('business.setting.logo_remove'),
      children: <Text size="sm">{t('business.setting.logo_remove_confirm')}</Text>,
      labels: { confirm: t('business.common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });

  return (
    <FormSection title={t('business.setting.logo')} hint={t('business.setting.logo_hint')}>
      {logo && (
        <Image
          src={logo}
          alt={t('business.setting.logo')}
          h={80}
          w="auto"
          fit="contain"
          data-testid="setting-logo"
        />
      )}
      {error && (
        <Text c="red" size="sm" data-testid="setting-logo-error">
          {error}
        </Text>
      )}
      <Group justify="flex-end">
        <Button
          variant="default"
          color="red"
          onClick={confirmRemove}
          loading={remove.isPending}
          data-testid="setting-logo-remove"
        >
          {t('business.setting.logo_remove')}
        </Button>
        <FileButton onChange={pick} accept={IMAGE_ACCEPT}>
          {(props) => (
            <Button {...props} loading={upload.isPending} data-testid="setting-logo-upload">
              {t('business.setting.logo_upload')}
            </Button>
          )}
        </FileButton>
      </Group>
    </FormSection>
  );
}
