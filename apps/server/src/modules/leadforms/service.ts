// The leadforms module's public functions (issue 21, ADR 074): a business's lead forms (spec 001 "Lead forms":
// /v1/leadForm, /v1/allLeadForms, toggle-active), their submissions, the embedded forms of an install (the
// Installs "Forms" calls), and what the widget module (its config) and the installs port ask. The widget's own
// calls (the form as a visitor gets it, a submission) are in ./submit.ts; the staff's notice in ./notify.ts.

import type { TListQuery } from '@stn/contracts/http';
import {
  checkLeadForm,
  type TEmbeddedForm,
  type TEmbeddedFormRequest,
  type TLeadForm,
  type TLeadFormListQuery,
  type TLeadFormRequest,
  type TLeadSubmission,
  type TLeadSubmissionListQuery,
} from '@stn/contracts/leadforms';
import { count, desc, eq, ilike, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { businessOf, type Ctx, found, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { visibleContact } from '../chats/service.ts';
import { allTags, contactFieldKeys, contactForSend } from '../contacts/service.ts';
import {
  effectiveSettings,
  embedCode,
  installForCalls,
  installsOfBusiness,
  leadFormInstalls,
} from '../installs/service.ts';
import { embeddedForms, leadForms, leadSubmissions } from './tables.ts';

export type LeadFormRow = typeof leadForms.$inferSelect;
export type EmbeddedFormRow = typeof embeddedForms.$inferSelect;
const fcols = { agency_id: leadForms.agency_id, business_id: leadForms.business_id };
const ecols = { agency_id: embeddedForms.agency_id, business_id: embeddedForms.business_id };
const scols = { agency_id: leadSubmissions.agency_id, business_id: leadSubmissions.business_id };

// ---------------------------------------------------------------------------------------------------
// Lead forms.

/** A live (not deleted) lead form of the context's business, or a 404; `lock` holds its row. */
export async function findLeadForm(ctx: Ctx, id: number, lock = false): Promise<LeadFormRow> {
  businessOf(ctx);
  const q = ctx.db
    .select()
    .from(leadForms)
    .where(scope(ctx, fcols, eq(leadForms.id, id), isNull(leadForms.deleted_at)));
  const [row] = lock ? await q.for('update') : await q;
  return found(row);
}

/** Rows as the API shows them: with the submissions' count and the installs that show each form. */
async function shapeLeadForms(ctx: Ctx, rows: LeadFormRow[]): Promise<TLeadForm[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [counts, widgets, embeds, installs] = await Promise.all([
    ctx.db
      .select({ id: leadSubmissions.lead_form_id, n: sql<number>`count(*)::int` })
      .from(leadSubmissions)
      .where(scope(ctx, scols, inArray(leadSubmissions.lead_form_id, ids)))
      .groupBy(leadSubmissions.lead_form_id),
    leadFormInstalls(ctx),
    ctx.db
      .selectDistinct({ install_id: embeddedForms.install_id, lead_form_id: embeddedForms.lead_form_id })
      .from(embeddedForms)
      .where(scope(ctx, ecols, inArray(embeddedForms.lead_form_id, ids), isNull(embeddedForms.deleted_at))),
    installsOfBusiness(ctx),
  ]);
  const n = new Map(counts.map((c) => [c.id, Number(c.n)]));
  const names = new Map(installs.map((i) => [i.id, i.name]));
  return rows.map((r) => {
    const using = new Set<number>([
      ...widgets.filter((w) => w.lead_form_id === r.id).map((w) => w.id),
      ...embeds.filter((e) => e.lead_form_id === r.id).map((e) => e.install_id),
    ]);
    return {
      id: r.id,
      name: r.name,
      active: r.active,
      languages: r.languages,
      steps: r.steps,
      styling: r.styling,
      texts: r.texts,
      tag_ids: r.tag_ids,
      is_allow_multi_select: r.steps.some((s) =>
        s.questions.some((q) => q.type === 'choice' && q.is_allow_multi_select),
      ),
      submissions: n.get(r.id) ?? 0,
      installs: [...using].flatMap((id) => {
        const name = names.get(id);
        return name === undefined ? [] : [{ id, name }];
      }),
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  });
}

async function shapeOne(ctx: Ctx, row: LeadFormRow): Promise<TLeadForm> {
  const [out] = await shapeLeadForms(ctx, [row]);
  return found(out);
}

export async function getLeadForm(ctx: Ctx, id: number): Promise<TLeadForm> {
  return shapeOne(ctx, await findLeadForm(ctx, id));
}

export async function listLeadForms(ctx: Ctx, q: TLeadFormListQuery) {
  businessOf(ctx);
  const term = q.search || q.keyword;
  const where = scope(
    ctx,
    fcols,
    isNull(leadForms.deleted_at),
    term ? ilike(leadForms.name, likePattern(term)) : undefined,
    q.status ? eq(leadForms.active, q.status === 'active') : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(leadForms)
      .where(where)
      .orderBy(desc(leadForms.created_at), desc(leadForms.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(leadForms).where(where),
  ]);
  return listEnvelope(await shapeLeadForms(ctx, rows), total?.n ?? 0, q);
}

/**
 * The form's own rules (the contracts' `checkLeadForm`), then every id it names must be the business's: the
 * form's tags (`tag_ids`), each option's and each consent's tag, each custom field a question fills
 * (`field:<key>`). One 422 names every wrong field by its path; nothing is written.
 */
async function checked(ctx: Ctx, input: TLeadFormRequest): Promise<TLeadFormRequest> {
  const languages = [...new Set(input.languages)];
  // Only a choice may allow several answers; only a consent carries a tag of its own.
  const steps = input.steps.map((s) => ({
    ...s,
    questions: s.questions.map((q) => ({
      ...q,
      is_allow_multi_select: q.type === 'choice' && q.is_allow_multi_select,
      tag_id: q.type === 'consent' ? q.tag_id : null,
    })),
  }));
  const form = { ...input, languages, steps, tag_ids: [...new Set(input.tag_ids)] };
  const errors: Record<string, string> = checkLeadForm(form);
  const usesFields = steps.some((s) => s.questions.some((q) => q.map_to?.startsWith('field:')));
  const [tags, fieldKeys] = await Promise.all([
    allTags(ctx),
    usesFields ? contactFieldKeys(ctx) : Promise.resolve([]),
  ]);
  const tagIds = new Set(tags.map((t) => t.id));
  const keys = new Set(fieldKeys);
  const badTag = (id: number | null) => id !== null && !tagIds.has(id);
  if (form.tag_ids.some(badTag)) errors.tag_ids = 'leadforms.tag_invalid';
  for (const [i, s] of steps.entries())
    for (const [j, q] of s.questions.entries()) {
      const at = `steps.${i}.questions.${j}`;
      if (badTag(q.tag_id)) errors[`${at}.tag_id`] = 'leadforms.tag_invalid';
      for (const [k, o] of q.options.entries())
        if (badTag(o.tag_id)) errors[`${at}.options.${k}.tag_id`] = 'leadforms.tag_invalid';
      if (q.map_to?.startsWith('field:') && !keys.has(q.map_to.slice('field:'.length)))
        errors[`${at}.map_to`] ??= 'leadforms.field_unknown';
    }
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION', undefined, errors);
  return form;
}

const formValues = (f: TLeadFormRequest) => ({
  name: f.name,
  active: f.active,
  languages: f.languages,
  steps: f.steps,
  styling: f.styling,
  texts: f.texts,
  tag_ids: f.tag_ids,
});

export async function createLeadForm(ctx: Ctx, input: TLeadFormRequest): Promise<TLeadForm> {
  const { agencyId, businessId } = businessOf(ctx);
  const form = await checked(ctx, input);
  const [row] = await ctx.db
    .insert(leadForms)
    .values({ agency_id: agencyId, business_id: businessId, ...formValues(form) })
    .returning();
  return shapeOne(ctx, found(row));
}

/** PUT sends the whole form. */
export async function updateLeadForm(ctx: Ctx, id: number, input: TLeadFormRequest): Promise<TLeadForm> {
  const cur = await findLeadForm(ctx, id);
  const form = await checked(ctx, input);
  const [row] = await ctx.db
    .update(leadForms)
    .set({ ...formValues(form), updated_at: new Date() })
    .where(eq(leadForms.id, cur.id))
    .returning();
  return shapeOne(ctx, found(row));
}

/** Switches the form on or off (an inactive form takes no answers; the widget stops offering it). */
export async function toggleLeadForm(ctx: Ctx, id: number): Promise<TLeadForm> {
  const row = await inTransaction(ctx, async (tx) => {
    const cur = await findLeadForm(tx, id, true);
    const [updated] = await tx.db
      .update(leadForms)
      .set({ active: !cur.active, updated_at: new Date() })
      .where(eq(leadForms.id, cur.id))
      .returning();
    return found(updated);
  });
  return shapeOne(ctx, row);
}

/**
 * Deletes a form (kept as deleted: its submissions stay on record). Its id then answers 404; installs that
 * showed it and its embedded forms stop showing it (the widget asks for a live, active form).
 */
export async function deleteLeadForm(ctx: Ctx, id: number): Promise<void> {
  const cur = await findLeadForm(ctx, id);
  await ctx.db
    .update(leadForms)
    .set({ deleted_at: new Date(), active: false, updated_at: new Date() })
    .where(eq(leadForms.id, cur.id));
}

/** Whether the id is a live lead form of the context's business (the installs port, ADR 054). */
export async function isLiveLeadForm(ctx: Ctx, input: { id: number }): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: leadForms.id })
    .from(leadForms)
    .where(scope(ctx, fcols, eq(leadForms.id, input.id), isNull(leadForms.deleted_at)));
  return row !== undefined;
}

/**
 * The lead form an install's widget offers (the LeadLabel trigger): its `lead_form_id` when
 * `is_enable_lead_form` is on and the form is live and active; else null. The widget's config names it, so
 * the config's ETag changes when the form is switched off or deleted.
 */
export async function installLeadForm(
  ctx: Ctx,
  input: { settings: Record<string, unknown> },
): Promise<LeadFormRow | null> {
  const where = offeredBy(ctx, input.settings);
  if (!where) return null;
  const [row] = await ctx.db.select().from(leadForms).where(where);
  return row ?? null;
}

/** The id of the lead form the install's widget offers, or null (the widget's config: the id only). */
export async function installLeadFormId(
  ctx: Ctx,
  input: { settings: Record<string, unknown> },
): Promise<number | null> {
  const where = offeredBy(ctx, input.settings);
  if (!where) return null;
  const [row] = await ctx.db.select({ id: leadForms.id }).from(leadForms).where(where);
  return row?.id ?? null;
}

/** Which form an install's settings offer, if it is live and active: null when they offer none. */
function offeredBy(ctx: Ctx, settings: Record<string, unknown>): SQL | null {
  const s = effectiveSettings(settings);
  if (!s.is_enable_lead_form || s.lead_form_id === null) return null;
  return (
    scope(
      ctx,
      fcols,
      eq(leadForms.id, s.lead_form_id),
      isNull(leadForms.deleted_at),
      eq(leadForms.active, true),
    ) ?? null
  );
}

// ---------------------------------------------------------------------------------------------------
// Submissions (read; a submission is written by ./submit.ts).

type SubmissionRow = typeof leadSubmissions.$inferSelect;

async function shapeSubmissions(
  ctx: Ctx,
  rows: (SubmissionRow & { form_name: string })[],
): Promise<TLeadSubmission[]> {
  const tagNames = new Map((rows.length ? await allTags(ctx) : []).map((t) => [t.id, t.name]));
  return rows.map((r) => ({
    id: r.id,
    lead_form_id: r.lead_form_id,
    form_name: r.form_name,
    embedded_form_id: r.embedded_form_id,
    install_id: r.install_id,
    contact_id: r.contact_id,
    target_kind: 3 as const,
    source: r.source,
    language: r.language,
    answers: r.answers.map((a) => ({ ...a, type: a.type as TLeadSubmission['answers'][number]['type'] })),
    consents: r.consents.map((c) => ({ question_id: c.question_id, text: c.text, given: c.given })),
    tags: r.tag_ids.flatMap((id) => {
      const name = tagNames.get(id);
      return name === undefined ? [] : [{ id, name }];
    }),
    page_url: r.page_url,
    created_at: r.created_at.toISOString(),
  }));
}

const submissionColumns = { row: leadSubmissions, form_name: leadForms.name };

export async function listLeadSubmissions(ctx: Ctx, q: TLeadSubmissionListQuery) {
  businessOf(ctx);
  const where = scope(
    ctx,
    scols,
    q.contact_id ? eq(leadSubmissions.contact_id, q.contact_id) : undefined,
    q.lead_form_id ? eq(leadSubmissions.lead_form_id, q.lead_form_id) : undefined,
    q.install_id ? eq(leadSubmissions.install_id, q.install_id) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select(submissionColumns)
      .from(leadSubmissions)
      .innerJoin(leadForms, eq(leadForms.id, leadSubmissions.lead_form_id))
      .where(where)
      .orderBy(desc(leadSubmissions.created_at), desc(leadSubmissions.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(leadSubmissions).where(where),
  ]);
  const data = await shapeSubmissions(
    ctx,
    rows.map((r) => ({ ...r.row, form_name: r.form_name })),
  );
  return listEnvelope(data, total?.n ?? 0, q);
}

/**
 * A contact's submissions, newest first (at most `perPage`), for those who see the contact but not the lead
 * forms: on the contact's page (the contact is the business's, else 404) and in the inbox's conversation
 * (the conversation is one the caller may see, else 404, the inbox's own rule).
 */
export async function contactLeadSubmissions(
  ctx: Ctx,
  input: { contactId: number; via: 'contact' | 'conversation'; q: TListQuery },
) {
  if (input.via === 'conversation') await visibleContact(ctx, input.contactId);
  else await contactForSend(ctx, input.contactId);
  return listLeadSubmissions(ctx, { ...input.q, contact_id: input.contactId });
}

export async function getLeadSubmission(ctx: Ctx, id: number): Promise<TLeadSubmission> {
  businessOf(ctx);
  const [row] = await ctx.db
    .select(submissionColumns)
    .from(leadSubmissions)
    .innerJoin(leadForms, eq(leadForms.id, leadSubmissions.lead_form_id))
    .where(scope(ctx, scols, eq(leadSubmissions.id, id)));
  const [out] = await shapeSubmissions(ctx, row ? [{ ...row.row, form_name: row.form_name }] : []);
  return found(out);
}

// ---------------------------------------------------------------------------------------------------
// Embedded forms of an install.

/** The install (of the business, not deleted), or a 404. */
async function liveInstall(ctx: Ctx, installId: number) {
  businessOf(ctx);
  const install = await installForCalls(ctx, installId);
  if (!install || install.status === 'deleted') throw notFound();
  return install;
}

async function findEmbeddedForm(ctx: Ctx, installId: number, id: number): Promise<EmbeddedFormRow> {
  const [row] = await ctx.db
    .select()
    .from(embeddedForms)
    .where(
      scope(
        ctx,
        ecols,
        eq(embeddedForms.id, id),
        eq(embeddedForms.install_id, installId),
        isNull(embeddedForms.deleted_at),
      ),
    );
  return found(row);
}

async function shapeEmbeddedForms(
  ctx: Ctx,
  installId: number,
  rows: EmbeddedFormRow[],
): Promise<TEmbeddedForm[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const formIds = [...new Set(rows.map((r) => r.lead_form_id))];
  const [forms, counts, code] = await Promise.all([
    ctx.db
      .select({ id: leadForms.id, name: leadForms.name })
      .from(leadForms)
      .where(scope(ctx, fcols, inArray(leadForms.id, formIds))),
    ctx.db
      .select({ id: leadSubmissions.embedded_form_id, n: sql<number>`count(*)::int` })
      .from(leadSubmissions)
      .where(scope(ctx, scols, inArray(leadSubmissions.embedded_form_id, ids)))
      .groupBy(leadSubmissions.embedded_form_id),
    embedCode(ctx, { id: installId }),
  ]);
  const names = new Map(forms.map((f) => [f.id, f.name]));
  const n = new Map(counts.map((c) => [c.id, Number(c.n)]));
  return rows.map((r) => ({
    id: r.id,
    install_id: r.install_id,
    name: r.name,
    lead_form_id: r.lead_form_id,
    lead_form_name: names.get(r.lead_form_id) ?? '',
    active: r.active,
    settings: r.settings,
    submissions: n.get(r.id) ?? 0,
    embed_code: `<div data-stn-form="${r.id}"></div>\n${code.code}`,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

async function shapeEmbedded(ctx: Ctx, row: EmbeddedFormRow): Promise<TEmbeddedForm> {
  const [out] = await shapeEmbeddedForms(ctx, row.install_id, [row]);
  return found(out);
}

export async function listEmbeddedForms(ctx: Ctx, input: TListQuery & { installId: number }) {
  await liveInstall(ctx, input.installId);
  const where = scope(
    ctx,
    ecols,
    eq(embeddedForms.install_id, input.installId),
    isNull(embeddedForms.deleted_at),
    input.keyword ? ilike(embeddedForms.name, likePattern(input.keyword)) : undefined,
  );
  const { limit, offset } = pageOf(input);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(embeddedForms)
      .where(where)
      .orderBy(desc(embeddedForms.created_at), desc(embeddedForms.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(embeddedForms).where(where),
  ]);
  return listEnvelope(await shapeEmbeddedForms(ctx, input.installId, rows), total?.n ?? 0, input);
}

export async function getEmbeddedForm(
  ctx: Ctx,
  input: { installId: number; id: number },
): Promise<TEmbeddedForm> {
  await liveInstall(ctx, input.installId);
  return shapeEmbedded(ctx, await findEmbeddedForm(ctx, input.installId, input.id));
}

/**
 * The lead form an embedded form places must be a live lead form of the business (a 422 on `lead_form_id`),
 * and a fixed language one of that form's (a 422 on `settings.language`).
 */
async function checkedEmbed(ctx: Ctx, input: TEmbeddedFormRequest): Promise<void> {
  const [form] = await ctx.db
    .select({ languages: leadForms.languages })
    .from(leadForms)
    .where(scope(ctx, fcols, eq(leadForms.id, input.lead_form_id), isNull(leadForms.deleted_at)));
  if (!form) throw invalid('lead_form_id', 'leadforms.form_invalid');
  const lang = input.settings.language;
  if (lang !== 'auto' && !form.languages.includes(lang))
    throw invalid('settings.language', 'leadforms.language_invalid');
}

export async function createEmbeddedForm(
  ctx: Ctx,
  input: TEmbeddedFormRequest & { installId: number },
): Promise<TEmbeddedForm> {
  const { agencyId, businessId } = businessOf(ctx);
  await liveInstall(ctx, input.installId);
  await checkedEmbed(ctx, input);
  const [row] = await ctx.db
    .insert(embeddedForms)
    .values({
      agency_id: agencyId,
      business_id: businessId,
      install_id: input.installId,
      lead_form_id: input.lead_form_id,
      name: input.name,
      active: input.active,
      settings: input.settings,
    })
    .returning();
  return shapeEmbedded(ctx, found(row));
}

export async function updateEmbeddedForm(
  ctx: Ctx,
  input: TEmbeddedFormRequest & { installId: number; id: number },
): Promise<TEmbeddedForm> {
  await liveInstall(ctx, input.installId);
  const cur = await findEmbeddedForm(ctx, input.installId, input.id);
  await checkedEmbed(ctx, input);
  const [row] = await ctx.db
    .update(embeddedForms)
    .set({
      lead_form_id: input.lead_form_id,
      name: input.name,
      active: input.active,
      settings: input.settings,
      updated_at: new Date(),
    })
    .where(eq(embeddedForms.id, cur.id))
    .returning();
  return shapeEmbedded(ctx, found(row));
}

export async function toggleEmbeddedForm(
  ctx: Ctx,
  input: { installId: number; id: number },
): Promise<TEmbeddedForm> {
  await liveInstall(ctx, input.installId);
  const cur = await findEmbeddedForm(ctx, input.installId, input.id);
  const [row] = await ctx.db
    .update(embeddedForms)
    .set({ active: !cur.active, updated_at: new Date() })
    .where(eq(embeddedForms.id, cur.id))
    .returning();
  return shapeEmbedded(ctx, found(row));
}

/** Deletes an embedded form (kept as deleted: its submissions stay); the page's placeholder shows nothing. */
export async function deleteEmbeddedForm(ctx: Ctx, input: { installId: number; id: number }): Promise<void> {
  await liveInstall(ctx, input.installId);
  const cur = await findEmbeddedForm(ctx, input.installId, input.id);
  await ctx.db
    .update(embeddedForms)
    .set({ deleted_at: new Date(), active: false, updated_at: new Date() })
    .where(eq(embeddedForms.id, cur.id));
}

/**
 * An embedded form of the install (not deleted) with its lead form (not deleted), switched on or not: the
 * widget's calls decide what an inactive one answers. Null when there is none.
 */
export async function embeddedFormOfInstall(
  ctx: Ctx,
  input: { installId: number; id: number },
): Promise<{ embed: EmbeddedFormRow; form: LeadFormRow } | null> {
  const [row] = await ctx.db
    .select({ embed: embeddedForms, form: leadForms })
    .from(embeddedForms)
    .innerJoin(leadForms, eq(leadForms.id, embeddedForms.lead_form_id))
    .where(
      scope(
        ctx,
        ecols,
        eq(embeddedForms.id, input.id),
        eq(embeddedForms.install_id, input.installId),
        isNull(embeddedForms.deleted_at),
        isNull(leadForms.deleted_at),
      ),
    );
  return row ?? null;
}

/**
 * The widget demo page's inline form (GET /widget-demo): the install's first embedded form that takes answers
 * now (it and its lead form on, neither deleted), or null. `ctx` is the install's business, as a visitor of
 * the install sees it: only an id leaves, which the page's placeholder carries as an embed code would.
 */
export async function demoEmbeddedFormId(ctx: Ctx, input: { installId: number }): Promise<number | null> {
  const [row] = await ctx.db
    .select({ id: embeddedForms.id })
    .from(embeddedForms)
    .innerJoin(leadForms, eq(leadForms.id, embeddedForms.lead_form_id))
    .where(
      scope(
        ctx,
        ecols,
        eq(embeddedForms.install_id, input.installId),
        eq(embeddedForms.active, true),
        isNull(embeddedForms.deleted_at),
        eq(leadForms.active, true),
        isNull(leadForms.deleted_at),
      ),
    )
    .orderBy(embeddedForms.id)
    .limit(1);
  return row?.id ?? null;
}

export { leadSubmitted } from './events.ts';
