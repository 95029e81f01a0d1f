// The event triggers (ADR 069): a missed or a completed call, a text in matching keywords, a contact
// tagged. Each listener runs after the commit that published the event, in the process that published it,
// finds the business's active automations of that kind and enters the contact; the entry key makes the
// same event enter a contact once (`call-<callId>`, `text-<messageId>`).
import type { TTriggerKind } from '@stn/contracts/automations';
import type { z } from 'zod';
import { businessBatcher } from '../../platform/batcher.ts';
import type { Deps } from '../../platform/deps.ts';
import { engineNow } from '../../platform/engine-clock.ts';
import type { EventBus } from '../../platform/events/events.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { messageReceived } from '../chats/service.ts';
import { contactByPhone, contactTagged, recordContactCall } from '../contacts/service.ts';
import { callCompleted, callMissed } from '../telephony/service.ts';
import type { Entry } from './entry.ts';
import { activeAutomations, enterEach, onInstall, triggerConfig, triggerContext } from './matching.ts';

type CallEvent = {
  callId: number;
  agencyId: number;
  businessId: number;
  installId: number;
  visitorPhone: string;
  visitorName: string | null;
};

export function registerTriggerListeners(events: EventBus, deps: Deps): void {
  events.on(callMissed, (p) => onCall(deps, 'missed-call', 'missed', p));
  events.on(callCompleted, (p) => onCall(deps, 'completed-call', 'completed', p));
  // The texts announced together (a batch of inbound texts) read the business's keyword automations once.
  const texts = businessBatcher<z.infer<typeof messageReceived.payload>>({
    run: async (items) => {
      const first = items[0];
      if (!first) return;
      const ctx = triggerContext(first, deps, 'sms-keyword');
      const active = await activeAutomations(ctx, 'sms-keyword');
      if (active.length === 0) return;
      for (const p of items) {
        const list = active.filter((a) => {
          const config = triggerConfig('sms-keyword', a.trigger);
          return config !== null && onInstall(a, p.installId) && keywordMatches(config, p.body);
        });
        await enterEach(ctx, list, 'sms-keyword', [
          {
            contactId: p.contactId,
            entryKey: `text-${p.messageId}`,
            data: { message_id: p.messageId, body: p.body, install_id: p.installId },
          },
        ]);
      }
    },
    onError: (err) => deps.log.error({ err, event: messageReceived.name }, 'event listener failed'),
  });
  events.on(messageReceived, (p) => {
    // STOP opted the contact out: it starts nothing.
    if (p.keyword === 'stop' || typeof p.body !== 'string') return;
    return texts.add(p);
  });
  // The taggings announced together (an import tags thousands of contacts in one commit) read the
  // business's new-tag automations once, and enter each automation's contacts in one statement.
  const tagged = businessBatcher<z.infer<typeof contactTagged.payload>>({
    run: async (items) => {
      const first = items[0];
      if (!first) return;
      const ctx = triggerContext(first, deps, 'new-tag');
      const active = await activeAutomations(ctx, 'new-tag');
      const now = engineNow(ctx);
      for (const a of active) {
        // Each tagging is an entry of its own: the automation's re-entry rule decides a second one. A
        // contact tagged twice at once with its tags enters by the first tagging, as one after the other.
        const entries = new Map<number, Entry>();
        for (const p of items)
          if (a.tags.includes(p.tagId) && !entries.has(p.contactId))
            entries.set(p.contactId, {
              contactId: p.contactId,
              entryKey: `tag-${p.tagId}-${now}`,
              data: { tag_id: p.tagId },
            });
        await enterEach(ctx, [a], 'new-tag', [...entries.values()]);
      }
    },
    onError: (err) => deps.log.error({ err, event: contactTagged.name }, 'event listener failed'),
  });
  events.on(contactTagged, (p) => tagged.add(p));
}

async function onCall(
  deps: Deps,
  kind: Extract<TTriggerKind, 'missed-call' | 'completed-call'>,
  outcome: 'missed' | 'completed',
  p: CallEvent,
): Promise<void> {
  const ctx = triggerContext(p, deps, kind);
  const list = (await activeAutomations(ctx, kind)).filter((a) => onInstall(a, p.installId));
  if (list.length === 0) return;
  const contactId = await callContact(ctx, p);
  await enterEach(ctx, list, kind, [
    {
      contactId,
      entryKey: `call-${p.callId}`,
      data: { call_id: p.callId, outcome, install_id: p.installId },
    },
  ]);
}

/** The visitor's contact: the one with the phone (a call made it already), else made now as a call does. */
async function callContact(ctx: Ctx, p: CallEvent): Promise<number> {
  const known = await contactByPhone(ctx, p.visitorPhone);
  if (known) return known.id;
  const [first = '', ...rest] = (p.visitorName ?? '').trim().split(/\s+/);
  const { contact } = await recordContactCall(ctx, {
    phone: p.visitorPhone,
    installId: p.installId,
    at: new Date(),
    firstName: first,
    lastName: rest.join(' '),
  });
  return contact.id;
}

const WORD = /[\p{L}\p{N}]/u;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a text matches the trigger's keywords, case ignored: `exact`, the whole trimmed text is a
 * keyword (inner spaces count as one); `contains`, a keyword appears in it as a word (not inside another
 * word: PRICE matches "what price?" but not "priceless").
 */
export function keywordMatches(
  config: { keywords: string[]; match: 'exact' | 'contains' },
  body: string,
): boolean {
  const text = body.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  if (!text) return false;
  return config.keywords.some((k) => {
    const keyword = k.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
    if (!keyword) return false;
    if (config.match === 'exact') return text === keyword;
    // A word boundary for letters and digits of any script, where the keyword starts or ends with one.
    const before = WORD.test(keyword[0] ?? '') ? '(?<![\\p{L}\\p{N}])' : '';
    const after = WORD.test(keyword.at(-1) ?? '') ? '(?![\\p{L}\\p{N}])' : '';
    return new RegExp(`${before}${escapeRegExp(keyword)}${after}`, 'u').test(text);
  });
}
