// The business screens serve two areas (ADR 053): an agency's own businesses, and the admin's, of every
// agency. The route name says which.

export type BusinessArea = 'admin' | 'agency';

export function businessArea(routeName: string | undefined): BusinessArea {
  return routeName?.startsWith('admin') ? 'admin' : 'agency';
}

/** The business list of an area: the admin's one route, or the agency's active tab. */
export const businessListRoute = (area: BusinessArea) =>
  area === 'admin' ? 'admin.business' : 'agency.business.accounts';
