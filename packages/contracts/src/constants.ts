// Business constants and limits of spec 000 §9 and spec 001 §9.
export const LIST_PAGE_SIZE = 10;
export const LIST_MAX_PAGE_SIZE = 100;
export const TABLE_PAGE_SIZES = [5, 6, 10] as const;
/** The data table's page size until the user picks another (the contact list keeps LIST_PAGE_SIZE). */
export const TABLE_PAGE_SIZE = 5;
/** Long texts in lists are cut to this many characters (pruneText in format.ts). */
export const TEXT_PRUNE_LENGTH = 38;
export const AUTH_PING_MS = 60_000;
export const SMS_SEGMENT_LENGTH = 160;
export const USAGE_WARNING_RATIO = 0.9;
export const LANGUAGES = ['en', 'es', 'br'] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: TLanguage = 'en';
export const WIDGET_TYPES = { calls: 1, texts: 2, both: 3 } as const;
export const BUSINESS_CREATE_DEFAULTS = {
  number_of_users: 1,
  number_of_installs: 1,
  calls: 200,
  messages: 2000,
  number_of_automations: 2,
  widget_type: 3,
} as const;
export const PLAN_DEFAULTS = { Users: 1, Installs: 1, Automations: 2, Messages: 200, Calls: 20 } as const;
export const PASSWORD_MIN_LENGTH = 8;
