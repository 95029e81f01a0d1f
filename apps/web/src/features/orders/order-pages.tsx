import { Alert, Button, Loader, Stack, Text, Title } from '@mantine/core';
import type { TProductData } from '@stn/contracts/orders';
import { useTranslation } from 'react-i18next';
import { useNavigate, useOutletContext } from 'react-router';
import { useAuth } from '../../lib/auth-store.ts';
import { useRouteName } from '../../lib/use-route-name.ts';
import { useOrderPlans } from './api.ts';
import { OrderForm } from './order-form.tsx';

// The order screens (spec 000 §2): /register, /order and /trial (an agency buys from the platform on the
// main domain), /business/register and /b/register (a business buys from the agency of the site),
// /f/:slug (a product), and their thank-you pages.

function PlansOrder({
  kind,
  trial,
  thankYou,
}: {
  kind: 'agency' | 'business';
  trial?: boolean;
  thankYou: string;
}) {
  const { t } = useTranslation();
  const offers = useOrderPlans(kind);
  if (offers.isPending) return <Loader />;
  if (offers.isError) return <Alert color="red">{t('orderPages.load_failed')}</Alert>;
  return (
    <OrderForm
      kind={kind}
      plans={offers.data.plans}
      orderBumps={offers.data.order_bumps}
      trial={trial ?? false}
      thankYou={thankYou}
    />
  );
}

/** /register, /order, /trial: one order screen; /trial gives the plan's trial (or 14 days). */
export function AgencyOrderPage() {
  const name = useRouteName();
  return <PlansOrder kind="agency" trial={name === 'trial'} thankYou="/order-thankyou" />;
}

/** /business/register and /b/register. */
export function BusinessOrderPage() {
  const name = useRouteName();
  return (
    <PlansOrder
      kind="business"
      thankYou={name === 'b-register' ? '/b/register-thankyou' : '/business/order-thankyou'}
    />
  );
}

/** /f/:slug: the product the layout loaded. */
export function ProductOrderPage() {
  const product = useOutletContext<TProductData | undefined>();
  if (!product) return null;
  return (
    <Stack>
      <Text c="dimmed">{product.seller_name}</Text>
      <OrderForm
        kind={product.buyer}
        plans={[product.plan]}
        orderBumps={product.order_bumps}
        slug={product.slug}
        thankYou="/f/thank-you"
      />
    </Stack>
  );
}

/** The thank-you pages: the account is ready; the app takes the new owner where the guards say (Setup). */
export function ThankYouPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { roleGroup } = useAuth();
  return (
    <Stack maw={560} mx="auto" ta="center" data-testid="order-thankyou">
      <Title order={2}>{t('orderPages.thank_you_title')}</Title>
      <Text>{t('orderPages.thank_you_text')}</Text>
      {roleGroup && (
        <Button onClick={() => navigate(`/${roleGroup.toLowerCase()}/`)} data-testid="order-continue">
          {t('orderPages.continue')}
        </Button>
      )}
    </Stack>
  );
}
