import { Alert, Code, List, Switch, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type TBusiness,
  type TBusinessAnalyticsSettings,
  WIDGET_TAG_EVENTS,
  ZBusinessAnalyticsSettings,
} from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { AdminSettingPage } from './admin-setting-page.tsx';
import { useUpdateBusinessSetting } from './api/business-settings.ts';

const FIELDS = ['enabled', 'gtag', 'data_layer'] as const;

function valuesOf(business: TBusiness | null | undefined): TBusinessAnalyticsSettings {
  const parsed = ZBusinessAnalyticsSettings.safeParse(business?.settings.analytics);
  return parsed.success ? parsed.data : { enabled: false, gtag: true, data_layer: true };
}

const validate = zodResolver(ZBusinessAnalyticsSettings);

/** The analytics integration (PUT /v1/businesses/setting `analytics`): the widget's events on the site's GA4/GTM. */
function AnalyticsForm({ business }: { business: TBusiness | null | undefined }) {
  const { t } = useTranslation();
  const save = useUpdateBusinessSetting();
  const form = useForm<TBusinessAnalyticsSettings>({ initialValues: valuesOf(business), validate });
  const submit = form.onSubmit(async (analytics) => {
    try {
      await save.mutateAsync({ analytics });
      form.resetDirty();
    } catch (err) {
      if (!(err instanceof ApiError)) return;
      for (const k of FIELDS) {
        const m = err.field(`analytics.${k}`);
        if (m) form.setFieldError(k, m);
      }
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <FormSection title={t('business.setting.analytics.title')} hint={t('business.setting.analytics.hint')}>
        <Switch
          label={t('business.setting.analytics.enabled')}
          data-testid="analytics-enabled"
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <Switch
          label={t('business.setting.analytics.gtag')}
          description={t('business.setting.analytics.gtag_hint')}
          disabled={!form.values.enabled}
          data-testid="analytics-gtag"
          {...form.getInputProps('gtag', { type: 'checkbox' })}
        />
        <Switch
          label={t('business.setting.analytics.data_layer')}
          description={t('business.setting.analytics.data_layer_hint')}
          disabled={!form.values.enabled}
          data-testid="analytics-data-layer"
          {...form.getInputProps('data_layer', { type: 'checkbox' })}
        />
        <div>
          <Title order={5}>{t('business.setting.analytics.events')}</Title>
          <List size="sm" data-testid="analytics-events">
            {WIDGET_TAG_EVENTS.map((e) => (
              <List.Item key={e}>
                <Code>{e}</Code> — {t(`business.setting.analytics.event.${e}`)}
              </List.Item>
            ))}
          </List>
        </div>
        <Alert color="blue">{t('business.setting.analytics.privacy')}</Alert>
        <FormActions submitting={save.isPending} submitTestId="analytics-save" />
      </FormSection>
    </form>
  );
}

/** business.setting.analytics: the analytics integration of the business's widgets (issue 25, ADR 087). */
export default function AnalyticsPage() {
  return <AdminSettingPage title="business.setting.analytics.title" Section={AnalyticsForm} />;
}
