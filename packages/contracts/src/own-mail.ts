import { z } from './zod.ts';

// The business's own e-mail (issue 25, ADR 090; spec 001 "Integrations"): SMTP e-mail accounts
// (`/v1/email-accounts`), the keyed integrations of a business (`/v1/businesses/integrations`, key sendgrid)
// and the agency's own SMTP account (`/v1/agencies/integartions`, spelling as in the product). Passwords
// and API keys are write-only: answers say `has_password` / `has_api_key`.

export const SMTP_SECURITIES = ['none', 'starttls', 'tls'] as const;
export type TSmtpSecurity = (typeof SMTP_SECURITIES)[number];
/** The kinds of the business's integrations (GET /v1/businesses/integrations/types). */
export const MAIL_INTEGRATION_TYPES = ['sendgrid', 'email'] as const;
export type TMailIntegrationKind = (typeof MAIL_INTEGRATION_TYPES)[number];

/** A host name or an IP address, no scheme, no port. */
const ZHost = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^(\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?)$/, 'validation.invalid');

export const ZEmailAccountInput = z.object({
  name: z.string().trim().max(191).default(''),
  from_email: z.email().trim().max(191),
  from_name: z.string().trim().max(191).default(''),
  host: ZHost,
  port: z.coerce.number().int().min(1).max(65535),
  security: z.enum(SMTP_SECURITIES),
  username: z.string().trim().max(255).default(''),
  /** Empty on update: the stored password stays. */
  password: z.string().max(500).default(''),
  is_default: z.boolean().optional(),
});
export type TEmailAccountInput = z.input<typeof ZEmailAccountInput>;

export const ZEmailAccount = z.object({
  id: z.number().int(),
  provider: z.literal('smtp'),
  name: z.string(),
  from_email: z.string(),
  from_name: z.string(),
  host: z.string(),
  port: z.number().int(),
  security: z.enum(SMTP_SECURITIES),
  username: z.string(),
  has_password: z.boolean(),
  is_default: z.boolean(),
  verified_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TEmailAccount = z.infer<typeof ZEmailAccount>;

export const ZMailIntegrationInput = z.object({
  key: z.literal('sendgrid'),
  name: z.string().trim().max(191).default(''),
  /** Empty on update: the stored key stays. */
  api_key: z.string().trim().max(500).default(''),
  from_email: z.email().trim().max(191),
  from_name: z.string().trim().max(191).default(''),
  active: z.boolean().default(true),
});
export type TMailIntegrationInput = z.input<typeof ZMailIntegrationInput>;

export const ZMailIntegration = z.object({
  id: z.number().int(),
  key: z.literal('sendgrid'),
  name: z.string(),
  from_email: z.string(),
  from_name: z.string(),
  has_api_key: z.boolean(),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TMailIntegration = z.infer<typeof ZMailIntegration>;

export const ZMailIntegrationType = z.object({
  type: z.enum(MAIL_INTEGRATION_TYPES),
  /** Whether the business may connect it (SendGrid: its agency switched `sendgrid_enabled` on). */
  available: z.boolean(),
  /** Whether the business has one connected. */
  connected: z.boolean(),
});
export type TMailIntegrationType = z.infer<typeof ZMailIntegrationType>;

/** GET /v1/businesses/integrations/type/{type}: the SendGrid integration, or the default e-mail account. */
export const ZMailIntegrationOfType = z.object({
  type: z.enum(MAIL_INTEGRATION_TYPES),
  integration: ZMailIntegration.nullable(),
  account: ZEmailAccount.nullable(),
});
