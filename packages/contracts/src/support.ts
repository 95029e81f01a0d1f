import { listOf } from './http.ts';
import { z } from './zod.ts';

// The support chat of spec 000 §2 Layout (issue 11): the platform's own website widget. The platform admin
// picks one install (of a business under the main agency) for agencies and another for businesses under
// the main agency; the profile carries the key of the one to load for the signed-in user.

/** An install the support chat may use: an active install of a live business under the main agency. */
export const ZSupportInstall = z.object({
  id: z.number().int(),
  name: z.string(),
  website: z.string(),
  business_id: z.number().int(),
  business_name: z.string(),
  /** Which list the install is in; a picked install that was archived or deleted since shows so. */
  status: z.enum(['active', 'archived', 'deleted']),
  /** The install's on/off switch: a switched-off install answers no widget request. */
  active: z.boolean(),
});
export type TSupportInstall = z.infer<typeof ZSupportInstall>;

export const ZSupportInstallList = listOf(ZSupportInstall);

export const ZSupportWidgetSettings = z.object({
  support_widget_agency_install_id: z.number().int().nullable(),
  support_widget_business_install_id: z.number().int().nullable(),
  /** The picked installs, for the pickers' labels (null when none is picked). */
  agency_install: ZSupportInstall.nullable(),
  business_install: ZSupportInstall.nullable(),
});
export type TSupportWidgetSettings = z.infer<typeof ZSupportWidgetSettings>;

export const ZSupportWidgetSettingsResponse = z.object({
  success: z.literal(true),
  data: ZSupportWidgetSettings,
});

export const ZSupportWidgetSettingsSaved = ZSupportWidgetSettingsResponse.extend({ message: z.string() });

/** PUT /v1/settings/support-widget: both ids, null for none (the chat is then not loaded for that side). */
export const ZSupportWidgetSettingsRequest = z.object({
  support_widget_agency_install_id: z.number().int().positive().nullable(),
  support_widget_business_install_id: z.number().int().positive().nullable(),
});
export type TSupportWidgetSettingsRequest = z.infer<typeof ZSupportWidgetSettingsRequest>;
