import { z } from './zod.ts';

/** The landing page's texts an agency may replace (issue 23): per language, each left out keeps the default. */
export const LANDING_TEXT_KEYS = [
  'headline',
  'subheadline',
  'stats_title',
  'stats_one',
  'stats_two',
  'stats_three',
  'generate_title',
  'guarantee_title',
  'guarantee_text',
] as const;
export type TLandingTextKey = (typeof LANDING_TEXT_KEYS)[number];
export const LANDING_LANGUAGES = ['en', 'es', 'br'] as const;
export const LANDING_TEXT_MAX = 500;

const ZLandingTextSet = z.strictObject(
  Object.fromEntries(
    LANDING_TEXT_KEYS.map((k) => [k, z.string().trim().max(LANDING_TEXT_MAX).optional()]),
  ) as Record<TLandingTextKey, z.ZodOptional<z.ZodString>>,
);
/** { en: { headline: '…' }, es: {…}, br: {…} }: an empty text is the same as one left out. */
export const ZLandingTexts = z.strictObject({
  en: ZLandingTextSet.optional(),
  es: ZLandingTextSet.optional(),
  br: ZLandingTextSet.optional(),
});
export type TLandingTexts = z.infer<typeof ZLandingTexts>;

// Site data of spec 000 §3, fetched by host.
export const ZSiteData = z.object({
  validDomain: z.boolean(),
  isMainAgency: z.boolean(),
  isMainDomain: z.boolean(),
  agency_id: z.number().int().nullable(),
  title: z.string(),
  headerLogo: z.string().nullable(),
  loginLogo: z.string().nullable(),
  favicon: z.string().nullable(),
  supportEmail: z.string().nullable(),
  address: z.string().nullable(),
  custom_script: z.string().nullable(),
  landingPage: z.boolean(),
  /** The agency's own landing texts ({} when it has none; only for a site with a landing page). */
  landingTexts: ZLandingTexts,
  /** The main agency's external marketing site: '/' on the main agency's host goes there (null: to login). */
  marketingUrl: z.string().nullable(),
  maintenance: z.boolean(),
});
export type TSiteData = z.infer<typeof ZSiteData>;

export const ZSiteDataResponse = z.object({ success: z.literal(true), data: ZSiteData });

/** Whether a site shows its landing page at '/' (spec 000 §2): the server serves it, the app's route agrees. */
export function showsLanding(site: TSiteData): boolean {
  return site.validDomain && site.landingPage && !site.isMainAgency;
}
