import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../../modules/users/tables.ts';

// Sessions (bearer tokens) belong to the platform's auth: every route tree resolves them.
// A foreign key to another module's table is the one reason a tables.ts imports another module's
// tables.ts (the architecture test allows it from tables.ts only).

/** The columns every token table starts with: the token's hash, its user and the tenant it was made in. */
const tokenColumns = () => ({
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  token_hash: text('token_hash').notNull(),
  user_id: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  agency_id: integer('agency_id'),
  business_id: integer('business_id'),
});

/** Bearer tokens: only a SHA-256 of the token is stored. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    ...tokenColumns(),
    kind: text('kind').$type<'access' | 'impersonation'>().notNull().default('access'),
    /** Set on impersonation tokens: who is really acting, and the token they started from. */
    impersonator_id: integer('impersonator_id').references(() => users.id, { onDelete: 'cascade' }),
    parent_token_id: integer('parent_token_id'),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('auth_tokens_hash_uq').on(t.token_hash), index('auth_tokens_user_idx').on(t.user_id)],
);

/**
 * What an e-mailed link is for; `unsubscribe` is a standing link, the others are used once.
 * `email_change` carries a new address (in `email`) that becomes the user's only once it is followed.
 */
export type LinkPurpose = 'password_reset' | 'verify_email' | 'invitation' | 'unsubscribe' | 'email_change';

/** One-time (or, for unsubscribe, standing) tokens sent by e-mail; stored hashed. */
export const userTokens = pgTable(
  'user_tokens',
  {
    ...tokenColumns(),
    purpose: text('purpose').$type<LinkPurpose>().notNull(),
    /** For verify_email: the address being confirmed; for email_change: the new address. */
    email: text('email'),
    expires_at: timestamp('expires_at', { withTimezone: true }),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_tokens_hash_uq').on(t.token_hash), index('user_tokens_user_idx').on(t.user_id)],
);
