import { type TActionConfig, waitSeconds } from '@stn/contracts/automations';
import { AppError } from '../../../platform/http/errors.ts';
import { sendMessage } from '../../chats/service.ts';
import { setContactField } from '../../contacts/service.ts';
import { sentByCrashedAttempt } from './send-message.ts';
import type { ActionExecutor } from './types.ts';

const DATE_FIELDS = new Set(['birthday', 'anniversary']);

/** An answer as a date (YYYY-MM-DD) for the date fields, or null when it is none. */
function asDate(text: string): string | null {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : [];
  if (!y || !m || !d) return null;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * CollectContactData (ADR 068): texts the question (chats' sendMessage, every check it applies, as the
 * automation), then waits up to `wait` for the contact's next text. An answer is stored in the field
 * (a date field takes YYYY-MM-DD or M/D/YYYY, else it is only kept in the run's vars) and the journey goes
 * on by `answered`; none in time: `no_answer`. A question the checks refuse (opted out, no number...) goes
 * on by `no_answer` at once, the reason recorded. A retry after a crash asks the carrier first whether the
 * lost attempt's question went out (as SendMessage does), so it is not asked twice.
 */
export const collectContactDataAction: ActionExecutor = async ({ ctx, config, contact, step, now }) => {
  const c = config as TActionConfig<'CollectContactData'>;
  if (step.wake === 'answer' && step.answer !== undefined) {
    const answer = step.answer.trim();
    const value = DATE_FIELDS.has(c.field) ? asDate(answer) : answer;
    const stored = value !== null && (await setContactField(ctx, { id: contact.id, field: c.field, value }));
    return {
      kind: 'next',
      output: 'answered',
      detail: { ...step.detail, answer, stored },
      vars: { [c.field]: answer },
    };
  }
  const until = step.detail.until;
  if (typeof until === 'string') {
    if (Date.parse(until) <= now.getTime()) return { kind: 'next', output: 'no_answer', detail: step.detail };
    return { kind: 'wait', until: new Date(until), answer: true, detail: step.detail };
  }
  const at = new Date(now.getTime() + waitSeconds(c.wait) * 1000);
  const sid = step.attempt > 1 ? await sentByCrashedAttempt(ctx, contact, c.question) : null;
  if (sid)
    return {
      kind: 'wait',
      until: at,
      answer: true,
      detail: { carrier_sid: sid, recovered: true, asked_at: now.toISOString(), until: at.toISOString() },
    };
  let messageId: number;
  try {
    messageId = (await sendMessage(ctx, { contactId: contact.id, body: c.question })).id;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const reason = err.message;
    return { kind: 'next', output: 'no_answer', detail: { error: reason } };
  }
  return {
    kind: 'wait',
    until: at,
    answer: true,
    detail: { message_id: messageId, asked_at: now.toISOString(), until: at.toISOString() },
  };
};
