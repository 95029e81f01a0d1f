import { Alert, Anchor, Button, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { TUser } from '@stn/contracts/profile';
import { useTranslation } from 'react-i18next';
import { useSubscriptionState } from '../features/billing/api/subscriptions.ts';
import { useImpersonation } from '../layouts/app/use-impersonation.ts';
import { mainRoleGroup } from '../lib/auth-store.ts';
import { heldReasons } from '../lib/nav/account-state.ts';
import { pathOf } from '../lib/nav/route-table.ts';
import { useSite } from '../lib/site.ts';

// The screen a guard holds an account on (spec 000 §4: agency subscriptions, agency setup, business
// subscriptions) says what is missing and who can fix it, instead of a bare title (ADR 023). The guards'
// targets stay the spec's; this explanation sits above the target's own screen (Subscriptions, where a
// plan is bought, ADR 076; Setup), or alone while that screen is not built.

function Item({ done, label, testId }: { done: boolean; label: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid={testId}
      data-state={done ? 'done' : 'missing'}
      icon={
        <ThemeIcon size={20} radius="xl" color={done ? 'green' : 'red'}>
          {done ? '✓' : '!'}
        </ThemeIcon>
      }
    >
      <Text span fw={500}>
        {label}
      </Text>{' '}
      <Text span c={done ? 'green' : 'red'} size="sm">
        ({t(done ? 'layout.held.done' : 'layout.held.missing')})
      </Text>
    </List.Item>
  );
}

export function HeldNotice({ user }: { user: TUser }) {
  const { t } = useTranslation();
  const site = useSite();
  const impersonation = useImpersonation();
  const reasons = heldReasons(user);
  const isAgency = user.role_group === 'Agency';
  const missingPlan = reasons.includes('plan');
  const missingTelephony = reasons.includes('telephony');
  const support = site.data?.supportEmail || null;
  const agencyId = user.agency?.id;
  // An Admin looking through an agency's eyes can fix it at once, in the agency's edit screen.
  const adminFix = isAgency && mainRoleGroup() === 'Admin' && agencyId !== undefined;
  const business = user.business;
  const businessFix = !isAgency && mainRoleGroup() === 'Agency' && business;
  // An agency buys from the platform; a business from its agency, once the agency takes cards.
  const canBuy = isAgency || user.agency_has_stripe_config;
  // A failed renewal keeps the account held: say why (Stripe's message).
  const subscription = useSubscriptionState(missingPlan && canBuy);
  const lastError = missingPlan ? subscription.data?.last_error : null;

  return (
    <Alert color="orange" variant="light" data-testid="held-notice" mb="lg" title={null}>
      <Stack gap="sm">
        <Title order={3} data-testid="held-title">
          {isAgency
            ? t('layout.held.agency_title', { name: user.agency?.name ?? '' })
            : t('layout.held.business_title', { name: business?.name ?? '' })}
        </Title>
        <Text>{t(isAgency ? 'layout.held.agency_intro' : 'layout.held.business_intro')}</Text>
        <List spacing="xs" center>
          <Item
            done={!missingPlan}
            label={t(isAgency ? 'layout.held.plan' : 'layout.held.business_plan')}
            testId="held-plan"
          />
          {isAgency && (
            <Item done={!missingTelephony} label={t('layout.held.telephony')} testId="held-telephony" />
          )}
        </List>
        <Stack gap={4} data-testid="held-who">
          {missingPlan && lastError && (
            <Text size="sm" c="red" fw={500} data-testid="held-last-error">
              {t('layout.held.last_error', { message: lastError })}
            </Text>
          )}
          {missingPlan && canBuy && (
            <Text size="sm" fw={500} data-testid="held-buy">
              {t(isAgency ? 'layout.held.plan_buy' : 'layout.held.business_plan_buy')}
            </Text>
          )}
          {missingPlan && (
            <Text size="sm">{t(isAgency ? 'layout.held.plan_who' : 'layout.held.business_plan_who')}</Text>
          )}
          {missingTelephony && <Text size="sm">{t('layout.held.telephony_who')}</Text>}
        </Stack>
        <Text size="sm" data-testid="held-contact">
          {support ? (
            <>
              {t('layout.held.contact_at')}{' '}
              <Anchor href={`mailto:${support}`} data-testid="held-support">
                {support}
              </Anchor>
            </>
          ) : (
            t('layout.held.contact')
          )}
        </Text>
        {adminFix && (
          <Button
            w="fit-content"
            loading={impersonation.busy}
            onClick={() => void impersonation.stop(pathOf('admin.agency.edit', { id: agencyId }))}
            data-testid="held-admin-fix"
          >
            {t('layout.held.admin_fix')}
          </Button>
        )}
        {businessFix && (
          <Button
            w="fit-content"
            loading={impersonation.busy}
            onClick={() => void impersonation.stop(pathOf('agency.business.edit', { id: business.id }))}
            data-testid="held-agency-fix"
          >
            {t('layout.held.agency_fix')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
