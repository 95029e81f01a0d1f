import type { TActionConfig } from '@stn/contracts/automations';
import { enterContacts } from '../entry.ts';
import type { ActionExecutor } from './types.ts';

/**
 * AddToAutomation (ADR 068): enters the contact into another automation of the business (entry key
 * `handoff-<run id>`, so a retried step enters once) and ends this journey. The target's rules apply: an
 * inactive target or its re-entry rule may refuse, which the step records (`entered: false`).
 */
export const addToAutomationAction: ActionExecutor = async ({ ctx, config, contact, run, automation }) => {
  const c = config as TActionConfig<'AddToAutomation'>;
  if (c.automation_id === automation.id)
    return { kind: 'handoff', detail: { automation_id: c.automation_id, entered: false, reason: 'same' } };
  const [runId] = await enterContacts(ctx, {
    automationId: c.automation_id,
    trigger: 'direct-call',
    entries: [
      {
        contactId: contact.id,
        entryKey: `handoff-${run.id}`,
        data: { from_automation: automation.id, from_run: run.id },
      },
    ],
  });
  return {
    kind: 'handoff',
    detail: { automation_id: c.automation_id, entered: runId !== undefined, run_id: runId ?? null },
  };
};
