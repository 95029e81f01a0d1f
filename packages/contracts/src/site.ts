import { z } from './zod.ts';

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
  maintenance: z.boolean(),
});
export type TSiteData = z.infer<typeof ZSiteData>;

export const ZSiteDataResponse = z.object({ success: z.literal(true), data: ZSiteData });
