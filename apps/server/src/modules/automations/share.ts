import type { TAutomation, TBlock, TTriggerKind } from '@stn/contracts/automations';
import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import { AppError } from '../../platform/http/errors.ts';
import {
  acrossTenants,
  businessOf,
  type Ctx,
  found,
  inTransaction,
  tenantContext,
} from '../../platform/tenancy/context.ts';
import { mainAgencyId, templateAgencyIds } from '../agencies/service.ts';
import { businessNames, liveBusinessesOf } from '../businesses/service.ts';
import { allTags, tagIdsByName } from '../contacts/service.ts';
import { getTemplate } from '../templates/service.ts';
import { normalised } from './checks.ts';
import {
  type AutomationRow,
  copyName,
  getAutomation,
  insertAutomation,
  newRowKeys,
  shapeAutomations,
} from './service.ts';
import { automations } from './tables.ts';

// Templates, share links and clones (ADR 070). A template is an automation of a template business
// (businesses.is_template) of the caller's agency or of the main agency, or of any business of a template
// agency (agencies.is_template); active or not. A share link's token opens an automation to
// the caller's business when it is of the same agency, or a template the caller may see: a token alone
// never reaches across agencies (a white-label agency's businesses are its own). A clone is a copy in the
// caller's business, inactive, with the other business's ids left behind: tags mapped by name (made when
// missing), a template's text copied into the message, everything else (installs, media, users, another
// automation, a webhook's headers, which may hold the other business's API key) dropped.

const notShared = () => new AppError('NOT_FOUND', 'automations.share_not_found');

/** Templates and share links are read across businesses and agencies on purpose (decision 097). */
const shared = (ctx: Ctx) => acrossTenants(ctx, 'templates and share links of other businesses (ADR 070)');

/**
 * The businesses whose automations are the caller's templates: the template businesses of its agency and of
 * the main agency, and every business of a template agency.
 */
async function templateBusinessIds(ctx: Ctx): Promise<number[]> {
  const { agencyId } = businessOf(ctx);
  const [main, templateAgencies] = await Promise.all([mainAgencyId(ctx), templateAgencyIds(ctx)]);
  const whole = new Set(templateAgencies);
  const ids = new Set<number>();
  for (const agency of new Set([agencyId, ...(main ? [main] : []), ...whole]))
    for (const b of await liveBusinessesOf(shared(ctx), { agencyId: agency }))
      if (b.is_template || whole.has(agency)) ids.add(b.id);
  return [...ids];
}

/** The automations of the template businesses, not deleted, newest first. */
async function templateRows(ctx: Ctx, where?: ReturnType<typeof eq>): Promise<AutomationRow[]> {
  const ids = await templateBusinessIds(ctx);
  if (ids.length === 0) return [];
  return shared(ctx)
    .db.select()
    .from(automations)
    .where(and(inArray(automations.business_id, ids), isNull(automations.deleted_at), where))
    .orderBy(desc(automations.created_at), desc(automations.id));
}

/** The gallery: each template's name, trigger, block kinds and share token. */
export async function listAutomationTemplates(ctx: Ctx) {
  return (await templateRows(ctx)).map((r) => ({
    id: r.id,
    name: r.name,
    start_trigger: r.start_trigger as TTriggerKind,
    block_kinds: (r.blocks as TBlock[]).map((b) => b.type),
    share_token: r.share_token,
  }));
}

/** What another business may see of its automation: no inbound URL, no webhook headers. */
function foreignView(a: TAutomation): TAutomation {
  return {
    ...a,
    webhook_url: null,
    runs: { active: 0, total: 0 },
    blocks: a.blocks.map((b) => (b.type === 'Webhook' ? { ...b, config: { ...b.config, headers: {} } } : b)),
  };
}

/** One template, in full (the editor's preview before cloning it). */
export async function getAutomationTemplate(ctx: Ctx, id: number): Promise<TAutomation> {
  const [row] = await templateRows(ctx, eq(automations.id, id));
  const [a] = await shapeAutomations(shared(ctx), [found(row)]);
  const shaped = found(a);
  return row?.business_id === businessOf(ctx).businessId ? shaped : foreignView(shaped);
}

/** The automation a share token opens to the caller's business, or 404 (ADR 070). */
async function sharedRow(ctx: Ctx, token: string): Promise<AutomationRow> {
  const { agencyId } = businessOf(ctx);
  const [row] = await shared(ctx)
    .db.select()
    .from(automations)
    .where(and(eq(automations.share_token, token), isNull(automations.deleted_at)))
    .orderBy(asc(automations.id));
  if (!row) throw notShared();
  if (row.agency_id === agencyId) return row;
  if ((await templateBusinessIds(ctx)).includes(row.business_id)) return row;
  throw notShared();
}

/** The share page's preview: name, trigger, block kinds and the business that shared it. */
export async function sharedPreview(ctx: Ctx, token: string) {
  const row = await sharedRow(ctx, token);
  const names = await businessNames(shared(ctx), { ids: [row.business_id] });
  return {
    name: row.name,
    start_trigger: row.start_trigger as TTriggerKind,
    block_kinds: (row.blocks as TBlock[]).map((b) => b.type),
    business_name: names.get(row.business_id) ?? '',
  };
}

const numbers = (v: unknown): number[] =>
  Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : [];

/** The graph of another business's automation with that business's ids mapped or dropped (see above). */
async function importedGraph(ctx: Ctx, src: AutomationRow) {
  const from = tenantContext(
    ctx.deps,
    { level: 'business', agencyId: src.agency_id, businessId: src.business_id },
    { kind: 'system', source: 'automation', name: 'automation clone' },
  );
  const blocks = src.blocks as TBlock[];
  const tagIds = new Set(src.tags);
  for (const b of blocks) {
    if (b.type === 'AddTag')
      for (const t of [...numbers(b.config.add), ...numbers(b.config.remove)]) tagIds.add(t);
    if (b.type === 'Condition') for (const t of numbers([b.config.tag_id])) tagIds.add(t);
  }
  const srcNames = new Map((await allTags(from)).filter((t) => tagIds.has(t.id)).map((t) => [t.id, t.name]));
  const mine = await tagIdsByName(ctx, [...srcNames.values()]);
  const tag = (id: number) => mine.get(srcNames.get(id)?.toLowerCase() ?? '');
  const tags = (list: unknown) => numbers(list).flatMap((id) => tag(id) ?? []);

  const out: TBlock[] = [];
  for (const b of blocks) {
    const c = { ...b.config };
    if (b.type === 'SendMessage') {
      const templateId = numbers([c.template_id])[0];
      if (templateId && typeof c.body === 'string' && c.body.trim() === '')
        c.body = await getTemplate(from, templateId).then(
          (t) => t.body,
          () => '',
        );
      c.template_id = null;
      c.media_ids = [];
    }
    if (b.type === 'SendCall' || b.type === 'SendVoiceMail') c.media_id = null;
    if (b.type === 'AddTag') {
      c.add = tags(c.add);
      c.remove = tags(c.remove);
    }
    if (b.type === 'Condition' && c.tag_id !== undefined && c.tag_id !== null)
      c.tag_id = tag(Number(c.tag_id)) ?? null;
    if (b.type === 'Alert') c.user_ids = [];
    if (b.type === 'AddToAutomation') delete c.automation_id;
    if (b.type === 'Webhook') c.headers = {};
    out.push({ ...b, config: c });
  }
  return { ...normalised({ trigger: src.trigger, blocks: out }), tags: tags(src.tags) };
}

/**
 * Imports the automation a share token opens into the caller's business: inactive, under the plan's limit.
 * A token of the caller's own business makes a plain copy (" (copy)"), as duplicate does.
 */
export async function cloneShared(ctx: Ctx, token: string): Promise<TAutomation> {
  const { businessId } = businessOf(ctx);
  const src = await sharedRow(ctx, token);
  const own = src.business_id === businessId;
  // One transaction: tags made for the copy go away with it when the plan's limit refuses it.
  const id = await inTransaction(ctx, async (tx) => {
    const graph = own
      ? { trigger: src.trigger, blocks: src.blocks as TBlock[], tags: src.tags }
      : await importedGraph(tx, src);
    return insertAutomation(tx, {
      name: own ? copyName(src.name) : src.name,
      start_trigger: graph.trigger.kind,
      trigger: graph.trigger,
      blocks: graph.blocks,
      options: src.options,
      installs: own ? src.installs : [],
      tags: graph.tags,
      ...newRowKeys(tx, graph.trigger),
      active: false,
    });
  });
  return getAutomation(ctx, id);
}
