import { type TActionConfig, waitSeconds } from '@stn/contracts/automations';
import { contactWroteSince } from '../../chats/service.ts';
import type { ActionExecutor, RunContact, StepInput } from './types.ts';

/** A contact field's value for a Condition: a standard field, else a custom field's key ('' when unset). */
export function fieldValue(contact: RunContact, field: string): string {
  const standard: Record<string, string | null> = {
    first_name: contact.first_name,
    last_name: contact.last_name,
    name: contact.name,
    email: contact.email,
    phone: contact.phone,
    birthday: contact.birthday,
    anniversary: contact.anniversary,
  };
  const v = field in standard ? standard[field] : contact.fields[field];
  return (v ?? '').toString();
}

/**
 * The run's call outcome: what a SendCall recorded (`vars.call_outcome`), else the trigger's
 * (`trigger_data.call_outcome` or `outcome`), else the trigger's kind (missed-call, completed-call).
 */
export function callOutcome(run: StepInput['run']): string | null {
  const v = run.vars.call_outcome ?? run.trigger_data.call_outcome ?? run.trigger_data.outcome;
  if (typeof v === 'string') return v;
  if (run.trigger === 'missed-call') return 'missed';
  if (run.trigger === 'completed-call') return 'completed';
  return null;
}

/**
 * Condition (ADR 068): yes or no by the contact's tags, a field, a reply since the run started (waiting up to
 * `within` for one, a reply waking it at once), a call's outcome.
 */
export const conditionAction: ActionExecutor = async ({ ctx, config, contact, run, step, now }) => {
  const c = config as TActionConfig<'Condition'>;
  let yes = false;
  const wanted = c.value.trim().toLowerCase();
  switch (c.kind) {
    case 'tag':
      yes = c.tag_id !== null && contact.tag_ids.includes(c.tag_id);
      break;
    case 'field_equals':
      yes =
        fieldValue(contact, c.field ?? '')
          .trim()
          .toLowerCase() === wanted;
      break;
    case 'field_contains':
      yes = fieldValue(contact, c.field ?? '')
        .toLowerCase()
        .includes(wanted);
      break;
    case 'replied': {
      // A reply while waiting decides at once; else what came since the journey started.
      if (step.wake === 'answer' && step.answer !== undefined) {
        yes = true;
        break;
      }
      yes = await contactWroteSince(ctx, { contactId: contact.id, since: run.started_at });
      if (yes || c.within === null) break;
      // Not yet: wait up to `within` for a reply (which wakes the step early), then decide no.
      const until = typeof step.detail.until === 'string' ? Date.parse(step.detail.until) : null;
      if (until === null) {
        const at = new Date(now.getTime() + waitSeconds(c.within) * 1000);
        return { kind: 'wait', until: at, answer: true, detail: { kind: c.kind, until: at.toISOString() } };
      }
      if (until > now.getTime())
        return { kind: 'wait', until: new Date(until), answer: true, detail: step.detail };
      break;
    }
    case 'call_outcome':
      yes = callOutcome(run) === c.outcome;
      break;
  }
  return { kind: 'next', output: yes ? 'yes' : 'no', detail: { kind: c.kind, result: yes } };
};
