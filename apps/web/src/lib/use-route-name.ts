import { useMatches } from 'react-router';
import type { RouteDef } from './nav/route-table.ts';

/** The route name of the current screen (several route names share one screen: tabs, add and edit). */
export function useRouteName(): string {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const route = (matches[i]?.handle as { route?: RouteDef } | undefined)?.route;
    if (route) return route.name;
  }
  return '';
}
