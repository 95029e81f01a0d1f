import { z } from 'zod';
import { defineEvent } from '../../platform/events/events.ts';

/**
 * A user's e-mail is to change (ADR 050): the link `token` confirms `to`, the address it goes to; `from`
 * is told. The auth module mails both (published after commit; the token lives in memory only).
 */
export const emailChangeRequested = defineEvent(
  'user.email_change_requested',
  z.object({ userId: z.number(), token: z.string(), from: z.string(), to: z.string() }),
);

/**
 * A user was created without a password (an agency's admin, a business's owner): the auth module mails
 * them an invitation to choose one (published after commit).
 */
export const userInvited = defineEvent('user.invited', z.object({ email: z.string() }));

/** A user's address is to be confirmed: the auth module mails them the link (published after commit). */
export const verificationNeeded = defineEvent('user.verification_needed', z.object({ email: z.string() }));
