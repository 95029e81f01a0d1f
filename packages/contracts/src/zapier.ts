import { zPhone } from './users.ts';
import { z } from './zod.ts';

// Zapier (issue 25, ADR 089): the platform as a published Zapier app uses it. OAuth 2 (authorization code)
// or an API key authenticates `/v1/zapier/*` as one business; REST hooks deliver its triggers; actions
// send a text, save a contact, tag it, start an automation.

/** Zapier's triggers: each is one of the platform's domain events of the business. */
export const ZAPIER_EVENTS = [
  'new_contact',
  'new_text',
  'call_completed',
  'call_missed',
  'lead_submitted',
  'contact_tagged',
] as const;
export type TZapierEvent = (typeof ZAPIER_EVENTS)[number];

/** The consent step of /auth/login: which app asks, for where to send the user back. */
export const ZOAuthLoginQuery = z.object({
  client_id: z.string().trim().min(1).max(200),
  redirect_uri: z.string().trim().min(1).max(2000),
});
export const ZOAuthLoginRequest = ZOAuthLoginQuery.extend({
  response_type: z.literal('code'),
  state: z.string().max(2000).optional(),
}).strict();
export type TOAuthLoginRequest = z.infer<typeof ZOAuthLoginRequest>;
export const ZOAuthLoginPreview = z.object({
  success: z.literal(true),
  data: z.object({ app: z.string(), business: z.string() }),
});
export const ZOAuthLoginResponse = z.object({
  success: z.literal(true),
  data: z.object({ redirect: z.string() }),
});

/** The token endpoint (RFC 6749 §4.1.3 and §6), form-encoded or JSON; the client by body or Basic. */
export const ZOAuthTokenRequest = z.object({
  grant_type: z.string().max(100).optional(),
  code: z.string().max(200).optional(),
  refresh_token: z.string().max(200).optional(),
  redirect_uri: z.string().max(2000).optional(),
  client_id: z.string().max(200).optional(),
  client_secret: z.string().max(200).optional(),
});

export const ZZapierMe = z.object({
  success: z.literal(true),
  data: z.object({
    business_id: z.number(),
    business: z.string(),
    /** Zapier's connection label. */
    label: z.string(),
    auth: z.enum(['oauth', 'api_key']),
  }),
});

export const ZApiKeyCreate = z.object({ name: z.string().trim().min(1).max(100) }).strict();
export const ZApiKey = z.object({
  id: z.number(),
  name: z.string(),
  /** The key's first characters, to tell keys apart. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type TApiKey = z.infer<typeof ZApiKey>;
export const ZApiKeyList = z.object({ success: z.literal(true), data: z.array(ZApiKey) });
/** The new key, whole, shown this once. */
export const ZApiKeyCreated = z.object({
  success: z.literal(true),
  data: ZApiKey.extend({ key: z.string() }),
});

export const ZZapierConnection = z.object({
  id: z.number(),
  /** Who consented. */
  user: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  hooks: z.number(),
});
export type TZapierConnection = z.infer<typeof ZZapierConnection>;
export const ZZapierConnectionList = z.object({ success: z.literal(true), data: z.array(ZZapierConnection) });

/** The agency's zapier screen: how to connect, and which of its businesses have. */
export const ZAgencyZapier = z.object({
  success: z.literal(true),
  data: z.object({
    client_id: z.string(),
    invite_url: z.string().nullable(),
    authorize_url: z.string(),
    token_url: z.string(),
    enabled: z.boolean(),
    free: z.boolean(),
    businesses: z.array(
      z.object({
        id: z.number(),
        name: z.string(),
        connections: z.number(),
        api_keys: z.number(),
        hooks: z.number(),
      }),
    ),
  }),
});
export type TAgencyZapier = z.infer<typeof ZAgencyZapier>['data'];

export const ZHookCreate = z
  .object({ event: z.enum(ZAPIER_EVENTS), target_url: z.string().trim().min(1).max(2000) })
  .strict();
export const ZHook = z.object({
  success: z.literal(true),
  data: z.object({ id: z.number(), event: z.enum(ZAPIER_EVENTS), target_url: z.string() }),
});
export const ZSampleParams = z.object({ event: z.enum(ZAPIER_EVENTS) });
export const ZSamples = z.object({
  success: z.literal(true),
  data: z.array(z.record(z.string(), z.unknown())),
});

/** Send a text: to a contact of the business by phone (made when new) or by id. */
export const ZZapierSendText = z
  .object({
    phone: zPhone().optional(),
    contact_id: z.coerce.number().int().positive().optional(),
    body: z.string().trim().min(1).max(1600),
    install_id: z.coerce.number().int().positive().optional(),
  })
  .strict()
  .refine((v) => v.phone !== undefined || v.contact_id !== undefined, {
    path: ['phone'],
    message: 'validation.required',
  });
/** Create or update a contact, by phone. */
export const ZZapierContact = z
  .object({
    phone: zPhone(),
    first_name: z.string().trim().max(100).optional(),
    last_name: z.string().trim().max(100).optional(),
    email: z.email().max(255).optional().or(z.literal('')),
    tags: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
  })
  .strict();
export const ZZapierTag = z.object({ phone: zPhone(), tag: z.string().trim().min(1).max(100) }).strict();
export const ZZapierStartAutomation = z
  .object({ phone: zPhone(), automation_id: z.coerce.number().int().positive() })
  .strict();
export const ZZapierResult = z.object({ success: z.literal(true), data: z.record(z.string(), z.unknown()) });
