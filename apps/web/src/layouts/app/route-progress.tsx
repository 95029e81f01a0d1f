import { Progress } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';

/** How long the flag stays up after a route-name change (no route here has a loader to wait for). */
const ROUTE_LOADING_MS = 400;

/**
 * The global loading flag of spec 000 §2: set when the route name changes (and while the router itself is
 * navigating), cleared shortly after. Shown as a thin bar on top (app-layout.tsx adds the impersonation calls).
 */
export function useRouteLoading(routeName: string | undefined): boolean {
  const navigation = useNavigation();
  const [changing, setChanging] = useState(false);
  const last = useRef(routeName);
  useEffect(() => {
    if (last.current === routeName) return;
    last.current = routeName;
    setChanging(true);
    const timer = window.setTimeout(() => setChanging(false), ROUTE_LOADING_MS);
    return () => window.clearTimeout(timer);
  }, [routeName]);
  return changing || navigation.state !== 'idle';
}

export function RouteProgress({ loading }: { loading: boolean }) {
  const { t } = useTranslation();
  if (!loading) return null;
  return (
    <Progress
      value={100}
      animated
      striped
      size={3}
      radius={0}
      pos="fixed"
      top={0}
      left={0}
      right={0}
      style={{ zIndex: 1000 }}
      aria-label={t('layout.loading')}
      data-testid="route-loading"
    />
  );
}
