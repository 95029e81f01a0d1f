import type { TLandingTextKey } from '@stn/contracts/site';

// Kept apart from landing-texts.ts so that the light landing page (ADR 080) takes the map without the
// contracts' language module.

/** The landing locale key whose default each of the agency's texts replaces. */
export const LANDING_TEXT_DEFAULTS: Record<TLandingTextKey, string> = {
  headline: 'landing.headline',
  subheadline: 'landing.subheadline',
  stats_title: 'landing.stats.title',
  stats_one: 'landing.stats.one',
  stats_two: 'landing.stats.two',
  stats_three: 'landing.stats.three',
  generate_title: 'landing.generate.title',
  guarantee_title: 'landing.guarantee.title',
  guarantee_text: 'landing.guarantee.text',
};
