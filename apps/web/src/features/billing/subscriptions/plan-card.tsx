import { Badge, Button, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { TPlanOffer } from '@stn/contracts/subscriptions';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../money.ts';
import { type FeatureRow, featureRows } from '../plan-display.ts';

function FeatureText({ row }: { row: FeatureRow }) {
  const { t } = useTranslation();
  const label = t(`agency.plans.features.${row.key}`);
  if (row.kind === 'switch') return <>{label}</>;
  const value = row.kind === 'unlimited' ? t('billing.plans.unlimited_value') : row.value;
  return (
    <>
      {label}: <b>{value}</b>
    </>
  );
}

/** One plan to buy: price, trial, the features a buyer compares, and its Subscribe / Change button. */
export function PlanCard(props: {
  plan: TPlanOffer;
  /** The account's plan now. */
  current: boolean;
  /** The account has a live subscription: the button changes plan. */
  live: boolean;
  selected: boolean;
  onChoose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { plan } = props;
  return (
    <Paper
      withBorder
      p="md"
      w={260}
      data-testid={`plan-card-${plan.id}`}
      style={props.selected ? { borderColor: 'var(--mantine-color-blue-6)', borderWidth: 2 } : undefined}
    >
      <Stack gap="xs" h="100%">
        <Title order={4} data-testid={`plan-name-${plan.id}`}>
          {plan.name}
        </Title>
        <Text size="xl" fw={700} data-testid={`plan-price-${plan.id}`}>
          {t(`billing.per.${plan.interval}`, {
            price: formatMoney(plan.price_cents, plan.currency, i18n.language),
          })}
        </Text>
        {plan.trial_days > 0 && (
          <Badge variant="light" color="yellow" data-testid={`plan-trial-${plan.id}`}>
            {t('billing.plans.trial_days', { count: plan.trial_days })}
          </Badge>
        )}
        <List spacing={4} size="sm" center>
          {featureRows(plan.features).map((row) => {
            const on = row.kind !== 'switch' || row.value;
            return (
              <List.Item
                key={row.key}
                data-testid={`plan-feature-${plan.id}-${row.key}`}
                data-on={on}
                icon={
                  <ThemeIcon
                    size={16}
                    radius="xl"
                    color={on ? 'green' : 'gray'}
                    variant={on ? 'filled' : 'light'}
                  >
                    {on ? '✓' : '–'}
                  </ThemeIcon>
                }
                c={on ? undefined : 'dimmed'}
              >
                <FeatureText row={row} />
              </List.Item>
            );
          })}
        </List>
        {plan.features.Description && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
            {plan.features.Description}
          </Text>
        )}
        <Stack mt="auto" gap={0}>
          {props.current ? (
            <Badge size="lg" variant="outline" fullWidth data-testid={`plan-current-${plan.id}`}>
              {t('billing.plans.current')}
            </Badge>
          ) : (
            <Button
              fullWidth
              variant={props.selected ? 'filled' : 'light'}
              onClick={props.onChoose}
              data-testid={`plan-subscribe-${plan.id}`}
            >
              {props.live ? t('billing.plans.change') : t('billing.plans.subscribe')}
            </Button>
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}
