import { Alert, Button, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { FormSection } from '../../components/form/form-section.tsx';
import { ReviewLink } from '../../components/google-review-link.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-store.ts';
import {
  googleReturnUrl,
  useAccountLocations,
  useFinishGoogle,
  useGoogleIntegrations,
  useGoogleLocation,
  useSaveGoogleLocation,
  useStartGoogle,
} from '../../lib/google-locations.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { useInstallOptions } from '../../lib/pickers.ts';

/**
 * A Google location of an install (routes business.setting.location.create and .edit; ADR 091): the Google
 * connection (or connect one: Google sends the browser back here with its code), one of the account's
 * locations, the install; the review link with a copy button.
 */
export default function GoogleLocationPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { id } = useParams();
  const locationId = Number(id ?? 0) || 0;
  const isAdmin = userCan(user, 'businessSettings.manage');
  return (
    <Stack maw={760}>
      <Title order={2} data-testid="page-title">
        {t(locationId ? 'googleBusiness.edit_title' : 'googleBusiness.create_title')}
      </Title>
      {isAdmin ? (
        <LocationForm locationId={locationId} />
      ) : (
        <Alert color="yellow">{t('business.setting.admin_only')}</Alert>
      )}
    </Stack>
  );
}

function LocationForm({ locationId }: { locationId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const existing = useGoogleLocation(locationId);
  const integrations = useGoogleIntegrations();
  const installs = useInstallOptions();
  const start = useStartGoogle();
  const finish = useFinishGoogle();
  const save = useSaveGoogleLocation(locationId || null);
  const [integrationId, setIntegrationId] = useState<string | null>(null);
  const [placeId, setPlaceId] = useState<string | null>(null);
  const [installId, setInstallId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [oauthError, setOauthError] = useState<string | null>(null);
  const accountLocations = useAccountLocations(integrationId ? Number(integrationId) : null);

  // Back from Google's consent with a code (or a refusal): finish connecting once, then clean the address.
  const finished = useRef(false);
  useEffect(() => {
    const code = params.get('code');
    const state = params.get('state');
    const error = params.get('error');
    if (finished.current || (!code && !error)) return;
    finished.current = true;
    setParams({}, { replace: true });
    if (error || !code || !state) {
      setOauthError(t('googleBusiness.consent_refused'));
      return;
    }
    finish
      .mutateAsync({ code, state, redirect_uri: googleReturnUrl(window.location.pathname) })
      .then((res) => setIntegrationId(String(res.data.id)))
      .catch((err) =>
        setOauthError(err instanceof ApiError ? err.message : t('googleBusiness.consent_refused')),
      );
  }, [params, setParams, finish, t]);

  // An edited location starts from what it is; a new one from the only connection there is.
  useEffect(() => {
    const l = existing.data;
    if (!l) return;
    setIntegrationId(String(l.google_integration_id));
    setPlaceId(l.location_id);
    setInstallId(String(l.install_id));
  }, [existing.data]);
  useEffect(() => {
    const only = integrations.data?.length === 1 ? integrations.data[0] : undefined;
    if (!locationId && only && integrationId === null) setIntegrationId(String(only.id));
  }, [integrations.data, integrationId, locationId]);

  if (locationId && existing.isPending) return <Loader size="sm" />;
  if (finish.isPending) return <Loader size="sm" data-testid="google-finishing" />;

  const picked = accountLocations.data?.find((l) => l.location_id === placeId);
  const connect = () => start.mutate(googleReturnUrl(window.location.pathname));
  const submit = async () => {
    setErrors({});
    try {
      await save.mutateAsync({
        google_integration_id: Number(integrationId),
        install_id: Number(installId),
        location_id: placeId ?? '',
      });
      navigate(pathOf('business.setting'));
    } catch (err) {
      if (err instanceof ApiError) {
        const e: Record<string, string> = {};
        for (const f of ['google_integration_id', 'install_id', 'location_id']) {
          const m = err.field(f);
          if (m) e[f] = m;
        }
        setErrors(e);
      }
    }
  };

  return (
    <FormSection testId="google-location-form">
      {oauthError && (
        <Alert color="red" data-testid="google-oauth-error">
          {oauthError}
        </Alert>
      )}
      <Group align="flex-end">
        <Select
          flex={1}
          label={t('googleBusiness.connection')}
          placeholder={t('googleBusiness.pick_connection')}
          data={(integrations.data ?? []).map((g) => ({
            value: String(g.id),
            label: g.email ? `${g.account_name} (${g.email})` : g.account_name,
          }))}
          value={integrationId}
          onChange={(v) => {
            setIntegrationId(v);
            setPlaceId(null);
          }}
          error={errors.google_integration_id}
          data-testid="google-location-connection"
        />
        <Button
          variant="light"
          onClick={connect}
          loading={start.isPending}
          data-testid="google-location-connect"
        >
          {t('googleBusiness.connect')}
        </Button>
      </Group>
      <Select
        label={t('googleBusiness.location')}
        placeholder={t('googleBusiness.pick_location')}
        disabled={!integrationId}
        data={(accountLocations.data ?? []).map((l) => ({
          value: l.location_id,
          label: l.address ? `${l.title} — ${l.address}` : l.title,
        }))}
        value={placeId}
        onChange={setPlaceId}
        error={errors.location_id}
        rightSection={accountLocations.isFetching ? <Loader size="xs" /> : undefined}
        data-testid="google-location-place"
      />
      <Select
        label={t('googleBusiness.install')}
        placeholder={t('googleBusiness.pick_install')}
        data={(installs.data ?? []).map((i) => ({ value: String(i.id), label: i.name }))}
        value={installId}
        onChange={setInstallId}
        error={errors.install_id}
        data-testid="google-location-install"
      />
      <div>
        <Text size="sm" fw={500} mb={4}>
          {t('googleBusiness.review_link')}
        </Text>
        {picked ? (
          <ReviewLink link={picked.review_link} />
        ) : (
          <Text size="sm" c="dimmed">
            {t('googleBusiness.pick_to_see_link')}
          </Text>
        )}
      </div>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => navigate(pathOf('business.setting'))}>
          {t('common.cancel')}
        </Button>
        <Button
          onClick={submit}
          loading={save.isPending}
          disabled={!integrationId || !placeId || !installId}
          data-testid="google-location-save"
        >
          {t('googleBusiness.save')}
        </Button>
      </Group>
    </FormSection>
  );
}
