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
