import { Alert, Loader, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { TModalUser, TPopupOffer } from '@stn/contracts/orders';
import type { TPlanOffer } from '@stn/contracts/subscriptions';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardEntry } from '../../components/card-form.tsx';
import { ApiError, api } from '../../lib/api-client.ts';
import { host } from './api.ts';

// The agency's payment popup (issue 23; spec 000 §2 /popup): on the agency's own site, alone or in the
// iframe /popup.js opens on its websites. The offer (title, description, the plan's price and features),
// the visitor's details (POST /v1/agencies/modal-users), then the card (the site seller's setup intent) and
// the charge (POST /v1/agencies/modal-users/charge): the business is made and its owner gets an e-mail to
// choose a password. A declined card shows Stripe's message in the card form; what was typed stays.

const FIELDS = ['email', 'full_name', 'business_name', 'phone'] as const;
type Field = (typeof FIELDS)[number];

const money = (cents: number, currency: string, lang: string) =>
  new Intl.NumberFormat(lang === 'br' ? 'pt-BR' : lang, {
    style: 'currency',
    currency: currency.toUpperCase(),
  }).format(cents / 100);

function usePopupOffer() {
  return useQuery({
    queryKey: ['popup-offer', host()],
    queryFn: async () =>
      (
        await api<{ data: TPopupOffer }>('/v1/agencies/popup-offer', {
          query: { domain: host() },
          silent: true,
        })
      ).data,
    retry: false,
  });
}

/** The message /popup.js closes its modal on (the frame's keys never reach the page around it). */
export const POPUP_CLOSE_MESSAGE = 'stn-popup-close';

/** In the frame /popup.js opens: Escape asks the page around it to close the popup. */
function useEscapeClosesFrame() {
  useEffect(() => {
    if (window.parent === window) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') window.parent.postMessage({ type: POPUP_CLOSE_MESSAGE }, '*');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

export default function PopupPage() {
  const { t } = useTranslation();
  const offer = usePopupOffer();
  useEscapeClosesFrame();
  if (offer.isPending) return <Loader data-testid="popup-loading" />;
  if (!offer.data?.enabled || !offer.data.plan)
    return (
      <Text c="dimmed" data-testid="popup-no-offer">
        {t('popupPage.no_offer')}
      </Text>
    );
  return <PopupOffer offer={offer.data} plan={offer.data.plan} />;
}

function PlanSummary({ plan }: { plan: TPlanOffer }) {
  const { t, i18n } = useTranslation();
  const f = plan.features;
  const count = (n: number) => (n === 0 ? t('popupPage.unlimited') : String(n));
  return (
    <Paper withBorder p="md" data-testid="popup-plan">
      <Title order={4}>{plan.name}</Title>
      <Text fw={700} size="xl" data-testid="popup-price">
        {money(plan.price_cents, plan.currency, i18n.language)} / {t(`popupPage.per_${plan.interval}`)}
      </Text>
      <Stack gap={2} mt="xs" component="ul" data-testid="popup-features">
        <li>{t('popupPage.features.users', { n: f.Users })}</li>
        <li>{t('popupPage.features.installs', { n: f.Installs })}</li>
        <li>{t('popupPage.features.messages', { n: count(f.Messages) })}</li>
        <li>{t('popupPage.features.calls', { n: count(f.Calls) })}</li>
      </Stack>
      {f.Description && (
        <Text size="sm" mt="xs">
          {f.Description}
        </Text>
      )}
    </Paper>
  );
}

function PopupOffer({ offer, plan }: { offer: TPopupOffer; plan: TPlanOffer }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<Field, string>>({
    email: '',
    full_name: '',
    business_name: '',
    phone: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [paid, setPaid] = useState<TModalUser | null>(null);
  /** The visitor recorded for these exact details; other details make a new one. */
  const visitor = useRef<{ key: string; id: number } | null>(null);

  if (paid)
    return (
      <Stack maw={560} mx="auto" data-testid="popup-thank-you">
        <Title order={2}>{t('popupPage.thanks_title')}</Title>
        <Text>{t('popupPage.thanks_text', { email: paid.email })}</Text>
      </Stack>
    );

  const pay = async (paymentMethod: string) => {
    setErrors({});
    const key = JSON.stringify(values);
    try {
      if (visitor.current?.key !== key) {
        const created = await api<{ data: TModalUser }>('/v1/agencies/modal-users', {
          method: 'POST',
          body: { ...values, plan_id: plan.id, domain: host() },
          silent: true,
        });
        visitor.current = { key, id: created.data.id };
      }
      const charged = await api<{ data: TModalUser }>('/v1/agencies/modal-users/charge', {
        method: 'POST',
        body: { modal_user_id: visitor.current.id, paymentMethod },
        silent: true,
      });
      setPaid(charged.data);
    } catch (err) {
      if (err instanceof ApiError) {
        const marked = Object.fromEntries(FIELDS.map((f) => [f, err.field(f)]).filter(([, m]) => m));
        setErrors(marked);
        if (Object.keys(marked).length > 0) throw new Error(t('popupPage.check_fields'));
      }
      throw err;
    }
  };

  return (
    <Stack maw={560} mx="auto" data-testid="popup-page">
      <Title order={2} data-testid="popup-title">
        {offer.title || plan.name}
      </Title>
      {offer.description && (
        <Text style={{ whiteSpace: 'pre-line' }} data-testid="popup-description">
          {offer.description}
        </Text>
      )}
      <PlanSummary plan={plan} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {FIELDS.map((f) => (
          <TextInput
            key={f}
            label={t(`popupPage.fields.${f}`)}
            type={f === 'email' ? 'email' : f === 'phone' ? 'tel' : 'text'}
            value={values[f]}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setValues((v) => ({ ...v, [f]: value }));
              setErrors((er) => ({ ...er, [f]: undefined }));
            }}
            error={errors[f]}
            required
            data-testid={`popup-${f}`}
          />
        ))}
      </SimpleGrid>
      {Object.keys(errors).some((f) => errors[f as Field]) && (
        <Alert color="red" data-testid="popup-form-error">
          {t('popupPage.check_fields')}
        </Alert>
      )}
      <Paper withBorder p="md">
        <Title order={5} mb="xs">
          {t('popupPage.card')}
        </Title>
        <CardEntry
          domain={host()}
          onPaymentMethod={pay}
          submitLabel={offer.button_text || t('popupPage.buy')}
        />
      </Paper>
    </Stack>
  );
}
