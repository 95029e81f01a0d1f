import {
  ACTION_CONFIGS,
  checkAutomation,
  type TAutomationProblem,
  type TBlock,
  TRIGGER_CONFIGS,
  type TTrigger,
} from '@stn/contracts/automations';
import { and, eq, isNull } from 'drizzle-orm';
import { AppError } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { allTags } from '../contacts/service.ts';
import { installsOfBusiness } from '../installs/service.ts';
import { mediaIdsOfBusiness, templateForSend } from '../templates/service.ts';
import { businessUserSummaries } from '../users/service.ts';
import { automations } from './tables.ts';

// What an automation is checked for when it is saved (ADR 070). Always: every id it names (installs, tags,
// a template, media, users, another automation) is one of the business's, else a 422 on that field, so a
// draft never holds another tenant's ids. On activation only: the contracts' `checkAutomation` (every
// required field, no dangling branch, no unreachable block, no loop), so a draft may be saved incomplete
// and nothing the user entered is lost.

type Graph = { trigger: TTrigger; blocks: TBlock[]; installs: number[]; tags: number[] };

const ids = (v: unknown): number[] =>
  Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x) && x > 0) : [];
const id = (v: unknown): number[] => (Number.isInteger(v) && (v as number) > 0 ? [v as number] : []);

/** The editor's field for a problem of the check: `blocks.<id>.<field>`, `trigger.config.<field>`, `trigger.start`. */
export function problemField(p: TAutomationProblem): string {
  if (p.block_id !== null) return p.field ? `blocks.${p.block_id}.${p.field}` : `blocks.${p.block_id}`;
  if (p.field === 'start') return 'trigger.start';
  return p.field ? `trigger.config.${p.field}` : 'trigger.config';
}

/**
 * A 422 naming every field that is wrong (translated by the error handler); on activation the check's
 * problems ride along in `data.problems` (message keys and the field each is shown on) for the canvas.
 */
function refusal(fields: Record<string, string>, problems?: TAutomationProblem[]): AppError {
  if (!problems) return new AppError('VALIDATION', undefined, fields);
  return new AppError(
    'VALIDATION',
    'automations.cannot_activate',
    fields,
    {},
    'automations.cannot_activate',
    {
      problems: problems.map((p) => ({ ...p, key: problemField(p) })),
    },
  );
}

/** Throws a 422 listing every problem that keeps the automation from being active. */
export function assertActivatable(a: Pick<Graph, 'trigger' | 'blocks'>): void {
  const problems = checkAutomation(a);
  if (problems.length === 0) return;
  const fields: Record<string, string> = {};
  for (const p of problems) fields[problemField(p)] ??= p.message;
  throw refusal(fields, problems);
}

/**
 * The trigger's and each block's configuration with the contracts' defaults filled in where it is complete
 * (what the engine reads), else as the user left it (a draft).
 */
export function normalised<T extends Pick<Graph, 'trigger' | 'blocks'>>(a: T): T {
  const trig = TRIGGER_CONFIGS[a.trigger.kind].safeParse(a.trigger.config);
  return {
    ...a,
    trigger: trig.success ? { ...a.trigger, config: trig.data as Record<string, unknown> } : a.trigger,
    blocks: a.blocks.map((b) => {
      const r = ACTION_CONFIGS[b.type].safeParse(b.config);
      return r.success ? { ...b, config: r.data as Record<string, unknown> } : b;
    }),
  };
}

/**
 * Every id the automation names must be one of the business's: installs, tags (its own and the blocks'),
 * a SendMessage's template and images, a call's recording, an Alert's users, an AddToAutomation's
 * automation (not itself, `selfId`). A 422 names each wrong field.
 */
export async function assertReferences(ctx: Ctx, a: Graph, selfId?: number): Promise<void> {
  const { businessId } = businessOf(ctx);
  const fields: Record<string, string> = {};
  const wanted = { tags: new Set(a.tags), users: new Set<number>(), media: new Set<number>() };
  for (const b of a.blocks) {
    const c = b.config;
    if (b.type === 'AddTag') for (const t of [...ids(c.add), ...ids(c.remove)]) wanted.tags.add(t);
    if (b.type === 'Condition') for (const t of id(c.tag_id)) wanted.tags.add(t);
    if (b.type === 'Alert') for (const u of ids(c.user_ids)) wanted.users.add(u);
    if (b.type === 'SendMessage') for (const m of ids(c.media_ids)) wanted.media.add(m);
    if (b.type === 'SendCall' || b.type === 'SendVoiceMail')
      for (const m of id(c.media_id)) wanted.media.add(m);
  }
  const [installs, tags, users, media] = await Promise.all([
    a.installs.length ? installsOfBusiness(ctx) : Promise.resolve([]),
    wanted.tags.size ? allTags(ctx) : Promise.resolve([]),
    businessUserSummaries(ctx, { businessId, ids: [...wanted.users] }),
    mediaIdsOfBusiness(ctx, [...wanted.media]),
  ]);
  const has = {
    install: new Set(installs.map((i) => i.id)),
    tag: new Set(tags.map((t) => t.id)),
    user: new Set(users.map((u) => u.id)),
    media: new Set(media),
  };
  const all = (list: number[], set: Set<number>) => list.every((x) => set.has(x));
  if (!all(a.installs, has.install)) fields.installs = 'automations.install_invalid';
  if (!all(a.tags, has.tag)) fields.tags = 'automations.tag_invalid';
  for (const b of a.blocks) {
    const c = b.config;
    const at = (field: string) => `blocks.${b.id}.${field}`;
    if (b.type === 'AddTag') {
      if (!all(ids(c.add), has.tag)) fields[at('add')] = 'automations.tag_invalid';
      if (!all(ids(c.remove), has.tag)) fields[at('remove')] = 'automations.tag_invalid';
    }
    if (b.type === 'Condition' && !all(id(c.tag_id), has.tag))
      fields[at('tag_id')] = 'automations.tag_invalid';
    if (b.type === 'Alert' && !all(ids(c.user_ids), has.user))
      fields[at('user_ids')] = 'automations.user_invalid';
    if (b.type === 'SendMessage' && !all(ids(c.media_ids), has.media))
      fields[at('media_ids')] = 'automations.media_invalid';
    if ((b.type === 'SendCall' || b.type === 'SendVoiceMail') && !all(id(c.media_id), has.media))
      fields[at('media_id')] = 'automations.media_invalid';
    if (b.type === 'SendMessage')
      for (const t of id(c.template_id)) {
        const ok = await templateForSend(ctx, t).then(
          () => true,
          (err) => {
            if (err instanceof AppError && (err.code === 'NOT_FOUND' || err.code === 'VALIDATION'))
              return false;
            throw err;
          },
        );
        if (!ok) fields[at('template_id')] = 'automations.template_invalid';
      }
    if (b.type === 'AddToAutomation')
      for (const other of id(c.automation_id)) {
        const [row] =
          other === selfId
            ? []
            : await ctx.db
                .select({ id: automations.id })
                .from(automations)
                .where(
                  scope(
                    ctx,
                    { agency_id: automations.agency_id, business_id: automations.business_id },
                    and(eq(automations.id, other), isNull(automations.deleted_at)),
                  ),
                );
        if (!row) fields[at('automation_id')] = 'automations.automation_invalid';
      }
  }
  if (Object.keys(fields).length) throw refusal(fields);
}
