// The away auto-reply (ADR 094): a text that arrives while its install is closed (the install's opening
// hours, in its time zone) is answered once with the business's away message, at most once per
// conversation every `away_every_hours`. It is a text of the business like any other (sendMessage: an
// opted-out, blocked or blacklisted contact, restricted content or a full month send nothing). It runs on
// the `message.received` event, after the webhook has answered; with the reply off, the cost of a text is
// one look at the business's cached settings.
import { isOpenAt } from '@stn/contracts/installs';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { businessMessagesSettings } from '../businesses/service.ts';
import { installForCalls } from '../installs/service.ts';
import { sendOnce, sentSince } from './service.ts';

type Received = {
  contactId: number;
  installId: number | null;
  keyword: 'stop' | 'start' | 'help' | null;
};

/** The away reply to one inbound text, in its business's context (`ctx`, made by the listener). */
export async function awayReply(ctx: Ctx, p: Received, now = new Date()): Promise<void> {
  // A keyword has its own reply (STOP, START, HELP); a text to no install has no hours.
  if (p.keyword || p.installId === null) return;
  const settings = await businessMessagesSettings(ctx);
  if (!settings.away_enabled || !settings.away_message) return;
  const install = await installForCalls(ctx, p.installId);
  if (!install || isOpenAt(install.settings, now)) return;
  const since = new Date(now.getTime() - settings.away_every_hours * 3_600_000);
  const body = settings.away_message;
  // Most texts of a closed evening find the reply sent already: one look, no send attempted.
  if (await sentSince(ctx, { contactId: p.contactId, body, since })) return;
  // Two texts of one person at once (in two processes, or one) both get here: the send decides once.
  await sendOnce(ctx, { contactId: p.contactId, body }, since);
}
