import { ROLE_GROUPS } from './roles.ts';
import { withPasswordConfirmation, zEmail, zPassword } from './validation.ts';
import { z } from './zod.ts';

export const ZLoginRequest = z.object({ email: zEmail(), password: z.string().min(1).max(200) });
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZLoginResponse = z.object({
  success: z.literal(true),
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: z.string(),
  role_group: z.enum(ROLE_GROUPS),
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

export const ZAuthCheckResponse = z.object({
  success: z.literal(true),
  data: z.object({ valid: z.literal(true), expires_at: z.string(), impersonating: z.boolean() }),
});

export const ZPasswordEmailRequest = z.object({ email: zEmail() });
export type TPasswordEmailRequest = z.infer<typeof ZPasswordEmailRequest>;

export const ZTokenVerifyRequest = z.object({
  token: z.string().min(1).max(200),
  email: zEmail().optional(),
});
export type TTokenVerifyRequest = z.infer<typeof ZTokenVerifyRequest>;

export const ZPasswordResetRequest = withPasswordConfirmation(
  z.object({
    token: z.string().min(1).max(200),
    email: zEmail(),
    password: zPassword(),
    password_confirmation: z.string(),
  }),
);
export type TPasswordResetRequest = z.infer<typeof ZPasswordResetRequest>;

export const ZTokenRequest = z.object({ token: z.string().min(1).max(200) });

export const ZUniqueEmailRequest = z.object({
  email: zEmail(),
  id: z.coerce.number().int().positive().optional(),
});
export const ZUniqueDomainRequest = z.object({ domain: z.string().trim().toLowerCase().min(1).max(253) });
export const ZUniqueResponse = z.object({
  success: z.literal(true),
  data: z.object({ unique: z.boolean() }),
});

export const ZUserInfoRequest = z.object({ token: z.string().min(1).max(200) });
export const ZUserInfoResponse = z.object({
  success: z.literal(true),
  data: z.object({ email: z.string(), first_name: z.string(), last_name: z.string(), purpose: z.string() }),
});

export const ZImpersonateResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: z.string(),
  role_group: z.enum(ROLE_GROUPS),
  is_template: z.boolean(),
});
export type TImpersonateResponse = z.infer<typeof ZImpersonateResponse>;

export const ZStopImpersonateResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  role_group: z.enum(ROLE_GROUPS),
});

// The impersonation drawer's list (spec 000 §2: id, name, email, subdomain_url, domain).
export const ZImpersonableUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  role_group: z.enum(ROLE_GROUPS),
  subdomain_url: z.string().nullable(),
  domain: z.string().nullable(),
  business: z.string().nullable(),
});
export type TImpersonableUser = z.infer<typeof ZImpersonableUser>;
