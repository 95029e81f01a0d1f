// What the contacts module asks of automations (the `automations` port, ADR 054), wired in ports.ts: the
// three contact automation calls (ADR 069). A contact put in an automation by hand enters it as a
// direct-call journey, whatever the automation's own trigger; its re-entry rule decides a second entry.
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Ports } from '../../platform/ports.ts';
import { scope } from '../../platform/tenancy/context.ts';
import { enterContacts, stopRun } from './engine.ts';
import { automations } from './tables.ts';

const cols = { agency_id: automations.agency_id, business_id: automations.business_id };

export const automationsPort: Ports['automations'] = {
  async status(ctx, input) {
    const [row] = await ctx.db
      .select({ active: automations.active })
      .from(automations)
      .where(scope(ctx, cols, and(eq(automations.id, input.automationId), isNull(automations.deleted_at))));
    if (!row) return null;
    return row.active ? 'active' : 'inactive';
  },
  async enter(ctx, input) {
    if (input.contactIds.length === 0) return 0;
    // One key per call: a contact whose journey is still going is not entered twice (one live run per
    // contact and automation), one who finished may enter again if the automation lets them.
    const entryKey = `direct-${crypto.randomUUID()}`;
    const runs = await enterContacts(ctx, {
      automationId: input.automationId,
      trigger: 'direct-call',
      entries: input.contactIds.map((contactId) => ({ contactId, entryKey })),
    });
    return runs.length;
  },
  stop: (ctx, input) => stopRun(ctx, input),
};
