// What every trigger does once it knows the business (ADR 069): find the business's active automations of
// its kind (the partial index automations_trigger_idx), and enter contacts into each through the engine,
// one transaction per automation, so that one automation's failure never keeps the others' journeys from
// starting.
import { TRIGGER_CONFIGS, type TTrigger, type TTriggerKind } from '@stn/contracts/automations';
import { and, eq, isNull } from 'drizzle-orm';
import { sharedCache } from '../../platform/cache.ts';
import { slot } from '../../platform/db/prepared.ts';
import type { Deps } from '../../platform/deps.ts';
import {
  businessOf,
  type Ctx,
  inTransaction,
  scopedPrepared,
  tenantContext,
} from '../../platform/tenancy/context.ts';
import { type Entry, enterContacts } from './engine.ts';
import { automations } from './tables.ts';

export type TriggerAutomation = { id: number; trigger: TTrigger; installs: number[]; tags: number[] };

/** The context a trigger acts in: the business the event or the URL names, acted on by the automation. */
export function triggerContext(
  business: { agencyId: number; businessId: number },
  deps: Deps,
  name: string,
): Ctx {
  return tenantContext(
    deps,
    { level: 'business', agencyId: business.agencyId, businessId: business.businessId },
    { kind: 'system', source: 'automation', name },
  );
}

const cols = { agency_id: automations.agency_id, business_id: automations.business_id };

/** What a trigger reads of an automation found across businesses (the date jobs, the inbound URL). */
export const triggerColumns = {
  id: automations.id,
  agencyId: automations.agency_id,
  businessId: automations.business_id,
  kind: automations.start_trigger,
  trigger: automations.trigger,
  installs: automations.installs,
  tags: automations.tags,
  active: automations.active,
};

const activeColumns = {
  id: automations.id,
  trigger: automations.trigger,
  installs: automations.installs,
  tags: automations.tags,
};

/** The business's active automations of a trigger, built once. */
const activeAutomationsQuery = scopedPrepared(cols, (db, tenant) =>
  db
    .select(activeColumns)
    .from(automations)
    .where(
      and(
        tenant,
        and(
          eq(automations.start_trigger, slot('kind')),
          eq(automations.active, true),
          isNull(automations.deleted_at),
        ),
      ),
    )
    .orderBy(automations.id),
);

/** The triggers the business's active automations start on, built once. */
const activeKindsQuery = scopedPrepared(cols, (db, tenant) =>
  db
    .selectDistinct({ kind: automations.start_trigger })
    .from(automations)
    .where(and(tenant, and(eq(automations.active, true), isNull(automations.deleted_at)))),
);

/**
 * The triggers each business's active automations start on, kept a few seconds (platform/cache.ts): every
 * call that ends and every text asks, and most businesses have no automation on most triggers (ADR 132).
 * A save that may make an automation active forgets the business at once, here and in every other process
 * (`forgetActiveTriggers`); an automation turned off or deleted needs no news: the trigger then reads the
 * automations themselves and finds it gone.
 */
const ACTIVE_TRIGGERS_TTL_MS = 5_000;
const activeTriggersCache = (deps: Deps) =>
  sharedCache<Set<string>>(deps, 'automation-active-triggers', ACTIVE_TRIGGERS_TTL_MS);

/** After a save that may have made an automation of the context's business active (once committed). */
export function forgetActiveTriggers(ctx: Ctx): void {
  activeTriggersCache(ctx.deps).forget(businessOf(ctx).businessId);
}

/** The context business's active, not deleted automations with this trigger, in id order. */
export async function activeAutomations(ctx: Ctx, kind: TTriggerKind): Promise<TriggerAutomation[]> {
  const kinds = await activeTriggersCache(ctx.deps).get(businessOf(ctx).businessId, async () => {
    const rows = await activeKindsQuery(ctx);
    return new Set(rows.map((r) => r.kind));
  });
  if (!kinds.has(kind)) return [];
  return activeAutomationsQuery(ctx, { kind });
}

/** The trigger's configuration with its defaults; null when it does not parse (a draft saved half-done). */
export function triggerConfig<K extends TTriggerKind>(
  kind: K,
  trigger: TTrigger,
): ReturnType<(typeof TRIGGER_CONFIGS)[K]['parse']> | null {
  const r = TRIGGER_CONFIGS[kind].safeParse(trigger.config ?? {});
  return r.success ? (r.data as ReturnType<(typeof TRIGGER_CONFIGS)[K]['parse']>) : null;
}

/** An automation listening on the install: none listed means every install. */
export const onInstall = (a: TriggerAutomation, installId: number | null) =>
  a.installs.length === 0 || (installId !== null && a.installs.includes(installId));

/**
 * Enters the entries into each automation (its own transaction; a failure is logged and the others go
 * on). Answers the ids of the runs started.
 */
export async function enterEach(
  ctx: Ctx,
  list: { id: number }[],
  trigger: TTriggerKind,
  entries: Entry[],
): Promise<number[]> {
  const started: number[] = [];
  if (entries.length === 0) return started;
  for (const a of list) {
    try {
      started.push(
        ...(await inTransaction(ctx, (tx) => enterContacts(tx, { automationId: a.id, trigger, entries }))),
      );
    } catch (err) {
      ctx.deps.log.error({ err, automationId: a.id, trigger }, 'automation trigger: entering failed');
    }
  }
  return started;
}
