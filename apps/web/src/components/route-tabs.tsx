import { type MantineSpacing, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pathOf } from '../lib/nav/route-table.ts';

/**
 * Tabs that are routes: `routes` maps each tab, in order, to the route it opens. A tab's test id is
 * `<testId>-<tab>` and its label the locale key `<labels>.<tab>`.
 */
export function RouteTabs(props: {
  value: string;
  routes: Readonly<Record<string, string>>;
  testId: string;
  labels: string;
  mb?: MantineSpacing;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Tabs
      value={props.value}
      onChange={(v) => {
        const route = v ? props.routes[v] : undefined;
        if (route) navigate(pathOf(route));
      }}
      mb={props.mb}
    >
      <Tabs.List>
        {Object.keys(props.routes).map((tab) => (
          <Tabs.Tab key={tab} value={tab} data-testid={`${props.testId}-${tab}`}>
            {t(`${props.labels}.${tab}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
