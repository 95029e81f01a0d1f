// The lead forms as the website widget uses them (issue 21, ADR 074): the install's lead form, an embedded
// form of the install in its look, and a visitor's submission. A submission, in one transaction: the
// answers checked with the contracts' `checkLeadAnswers` (the widget's own check, so both say the same in
// the visitor's language); the contact found by phone, else by e-mail, else created, its mapped attributes
// and custom fields filled, its tags added (contact.tagged for each new one: automations start); the
// submission stored as it was shown (labels and answers in the visitor's language, consents with their text,
// time and address); the staff's notice enqueued; `lead.submitted` and the inbox's news after commit.
import type { TLanguage } from '@stn/contracts/constants';
import {
  checkLeadAnswers,
  LEAD_MESSAGES,
  LEAD_TEXT_DEFAULTS,
  leadLanguage,
  localized,
  publicLeadForm,
  type TLeadAnswer,
  type TLeadFormPublic,
  type TLeadLanguage,
  type TLeadQuestion,
  type TLeadStyling,
  type TWidgetEmbeddedForm,
  type TWidgetLeadAnswer,
  type TWidgetLeadRequest,
} from '@stn/contracts/leadforms';
import { widgetPhoneToE164 } from '@stn/contracts/widget';
import { eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { publish } from '../../platform/events/events.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, found, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { RateLimiter, type WidgetInstall } from '../../platform/widget/tree.ts';
import { announceConversationLead, splitName } from '../chats/service.ts';
import { saveLeadContact } from '../contacts/service.ts';
import { effectiveSettings } from '../installs/service.ts';
import { leadSubmitted } from './events.ts';
import { leadNoticeJob } from './notify.ts';
import { type EmbeddedFormRow, embeddedFormOfInstall, installLeadForm, type LeadFormRow } from './service.ts';
import { leadForms, leadSubmissions, type StoredAnswer, type StoredConsent } from './tables.ts';

/** Submissions one visitor phone may send a minute (to any form of the install). */
export const LEADS_PER_PHONE_MINUTE = 5;
/** Submissions one form takes a minute, from any number of addresses (a flood fills no inbox). */
export const LEADS_PER_FORM_MINUTE = 30;

type Limits = { perAddress: RateLimiter; perPhone: RateLimiter; perForm: RateLimiter };
const limitsOf = new WeakMap<Deps, Limits>();
/** The lead limits of one app (its deps): in-process, as the widget's other limits. */
function limits(ctx: Ctx): Limits {
  let l = limitsOf.get(ctx.deps);
  if (!l) {
    l = {
      // As the widget's texts and bookings: a tenth-ish of the tree's per-address budget, at least 10.
      perAddress: new RateLimiter(Math.max(10, Math.floor(ctx.deps.config.widgetRatePerAddress / 12))),
      perPhone: new RateLimiter(LEADS_PER_PHONE_MINUTE),
      perForm: new RateLimiter(LEADS_PER_FORM_MINUTE),
    };
    limitsOf.set(ctx.deps, l);
  }
  return l;
}

const throttled = () => new AppError('TOO_MANY', 'leadforms.throttled', undefined, {}, 'leadforms.throttled');
const inactive = () =>
  new AppError('FORBIDDEN', 'leadforms.form_inactive', undefined, {}, 'leadforms.form_inactive');

/** The visitor's address (the tree puts it in the context). */
const addressOf = (ctx: Ctx): string | null => (ctx.by.kind === 'visitor' ? (ctx.by.ip ?? null) : null);

/** The form as a visitor gets it. */
const publicOf = (row: LeadFormRow): TLeadFormPublic => publicLeadForm({ ...row, tag_ids: row.tag_ids });

/** GET /api/widget/v1/lead-form: the install's lead form (a 404 when the install offers none). */
export async function widgetLeadForm(ctx: Ctx, input: { install: WidgetInstall }): Promise<TLeadFormPublic> {
  const row = await installLeadForm(ctx, { settings: input.install.settings });
  if (!row) throw notFound();
  return publicOf(row);
}

/**
 * The look an embedded form takes: the lead form's, or with `use_install_style` the install's widget colours
 * (its primary colour and text colour on the buttons; its panel's padding, width, background, border, corners).
 */
function embedStyling(form: LeadFormRow, embed: EmbeddedFormRow, install: WidgetInstall): TLeadStyling {
  if (!embed.settings.use_install_style) return form.styling;
  const s = effectiveSettings(install.settings);
  return {
    ...form.styling,
    ButtonColor: s.colors.primary,
    ButtonTextColor: s.colors.text,
    Padding: s.styling.Padding,
    MaxWidth: s.styling.MaxWidth,
    BackgroundColor: s.styling.BackgroundColor,
    BorderColor: s.styling.BorderColor,
    Roudness: s.styling.Roudness,
  };
}

/** GET /api/widget/v1/forms/{id}: an active embedded form of this install (another install's: 404). */
export async function widgetEmbeddedForm(
  ctx: Ctx,
  input: { install: WidgetInstall; id: number },
): Promise<TWidgetEmbeddedForm> {
  const found = await embeddedFormOfInstall(ctx, { installId: input.install.id, id: input.id });
  if (!found?.embed.active || !found.form.active) throw notFound();
  const { embed, form } = found;
  return {
    id: embed.id,
    settings: embed.settings,
    form: { ...publicOf(form), styling: embedStyling(form, embed, input.install) },
  };
}

/**
 * The form a submission names: the install's widget lead form (no `embed_id`), or the lead form of the
 * install's embedded form `embed_id`. Another form, another install's embed: 404; switched off (the form,
 * the embed, or the install's lead form): 403 with the form's own sentence.
 */
async function formOfSubmission(
  ctx: Ctx,
  install: WidgetInstall,
  body: Pick<TWidgetLeadRequest, 'form_id' | 'embed_id'>,
): Promise<{ form: LeadFormRow; embed: EmbeddedFormRow | null }> {
  if (body.embed_id !== undefined) {
    const hit = await embeddedFormOfInstall(ctx, { installId: install.id, id: body.embed_id });
    if (!hit || hit.form.id !== body.form_id) throw notFound();
    if (!hit.embed.active || !hit.form.active) throw inactive();
    return hit;
  }
  const s = effectiveSettings(install.settings);
  if (s.lead_form_id !== body.form_id) throw notFound();
  const [form] = await ctx.db
    .select()
    .from(leadForms)
    .where(
      scope(
        ctx,
        { agency_id: leadForms.agency_id, business_id: leadForms.business_id },
        eq(leadForms.id, body.form_id),
        isNull(leadForms.deleted_at),
      ),
    );
  if (!form) throw notFound();
  if (!s.is_enable_lead_form || !form.active) throw inactive();
  return { form, embed: null };
}

const questionsOf = (form: LeadFormRow): TLeadQuestion[] => form.steps.flatMap((s) => s.questions);

/** A choice's picked options as their labels in `lang`. */
function optionLabels(q: TLeadQuestion, picked: string[], lang: TLeadLanguage, first: TLeadLanguage): string {
  return picked
    .map((id) => localized(q.options.find((o) => o.id === id)?.label, lang, first) || id)
    .join(', ');
}

/** What the answers fill on the contact, and the tags they give. */
function contactOf(form: LeadFormRow, values: Record<string, TLeadAnswer>) {
  const first = form.languages[0] ?? 'en';
  const attrs: Partial<Record<'first_name' | 'last_name' | 'email' | 'birthday' | 'anniversary', string>> =
    {};
  const fields: Record<string, string> = {};
  const tagIds = new Set(form.tag_ids);
  let phone = '';
  for (const q of questionsOf(form)) {
    const v = values[q.id];
    if (v === undefined) continue;
    if (q.type === 'choice' && Array.isArray(v))
      for (const id of v) {
        const tag = q.options.find((o) => o.id === id)?.tag_id;
        if (tag) tagIds.add(tag);
      }
    if (q.type === 'consent' && v === true && q.tag_id) tagIds.add(q.tag_id);
    if (!q.map_to) continue;
    // A choice fills a field with its options' labels in the form's first language (the business's words).
    const text =
      typeof v === 'string' ? v : Array.isArray(v) ? optionLabels(q, v, first, first) : v ? 'yes' : 'no';
    if (q.map_to === 'phone') phone = text;
    else if (q.map_to === 'name') Object.assign(attrs, splitName(text));
    else if (q.map_to.startsWith('field:')) fields[q.map_to.slice('field:'.length)] = text;
    else attrs[q.map_to as keyof typeof attrs] = text;
  }
  return { phone, attrs, fields, tagIds: [...tagIds] };
}

/** The answers and consents as the visitor saw them (labels and values in their language). */
function asShown(
  form: LeadFormRow,
  values: Record<string, TLeadAnswer>,
  lang: TLeadLanguage,
  at: Date,
  ip: string | null,
): { answers: StoredAnswer[]; consents: StoredConsent[] } {
  const first = form.languages[0] ?? 'en';
  const answers: StoredAnswer[] = [];
  const consents: StoredConsent[] = [];
  for (const q of questionsOf(form)) {
    const label = localized(q.label, lang, first);
    const v = values[q.id];
    if (q.type === 'consent') {
      const given = v === true;
      consents.push({ question_id: q.id, text: label, given, at: at.toISOString(), ip });
      continue;
    }
    if (v === undefined) continue;
    const value = Array.isArray(v) ? optionLabels(q, v, lang, first) : String(v);
    answers.push({ question_id: q.id, label, type: q.type, value });
  }
  return { answers, consents };
}

/** POST /api/widget/v1/lead: a visitor's submission (see the file's head). */
export async function submitLead(
  ctx: Ctx,
  input: {
    install: WidgetInstall;
    body: Omit<TWidgetLeadRequest, 'language'> & { language?: TLeadLanguage | undefined };
    /** The visitor's browser language (Accept-Language), when the body names none. */
    lang: TLanguage;
    userAgent?: string | undefined;
  },
): Promise<TWidgetLeadAnswer> {
  const { install, body } = input;
  const { agencyId, businessId } = businessOf(ctx);
  // A robot that filled the honeypot gets an answer of the right shape, and nothing is stored.
  if (body.website) {
    const lang = leadLanguage({ languages: ['en', 'es', 'br'] }, body.language ?? input.lang);
    return { id: 0, thanks: LEAD_TEXT_DEFAULTS[lang].thanks, redirect_url: null };
  }
  const { form, embed } = await formOfSubmission(ctx, install, body);
  const lang = leadLanguage(form, body.language ?? input.lang);
  const ip = addressOf(ctx);
  if (!limits(ctx).perAddress.take(`${install.id}:${ip ?? ''}`)) throw throttled();
  if (!limits(ctx).perForm.take(`${form.id}`)) throw throttled();
  const { errors, values } = checkLeadAnswers(publicOf(form), body.answers, widgetPhoneToE164);
  if (Object.keys(errors).length > 0)
    throw new AppError(
      'VALIDATION',
      undefined,
      Object.fromEntries(
        Object.entries(errors).map(([id, key]) => [`answers.${id}`, LEAD_MESSAGES[lang][key]]),
      ),
    );
  const who = contactOf(form, values);
  // A saved form always has its required phone question (checkLeadForm); an answer without it is refused.
  if (!who.phone) throw new AppError('VALIDATION', 'leadforms.phone_missing');
  if (!limits(ctx).perPhone.take(`${install.id}:${who.phone}`)) throw throttled();
  const at = new Date();
  const shown = asShown(form, values, lang, at, ip);
  const id = await inTransaction(ctx, async (tx) => {
    const saved = await saveLeadContact(tx, {
      phone: who.phone,
      installId: install.id,
      values: who.attrs,
      fields: who.fields,
      tagIds: who.tagIds,
      at,
    });
    const [row] = await tx.db
      .insert(leadSubmissions)
      .values({
        agency_id: agencyId,
        business_id: businessId,
        lead_form_id: form.id,
        embedded_form_id: embed?.id ?? null,
        install_id: install.id,
        contact_id: saved.contact.id,
        language: lang,
        source: embed ? 'embed' : 'widget',
        answers: shown.answers,
        consents: shown.consents,
        tag_ids: saved.tagIds,
        page_url: body.page_url?.trim() || null,
        ip,
        user_agent: input.userAgent?.slice(0, 500) ?? null,
      })
      .returning({ id: leadSubmissions.id });
    const submissionId = found(row).id;
    // The staff's notice is a job written in this transaction: it exists exactly when the submission does,
    // and the visitor's answer never waits for mail or the carrier.
    await tx.deps.queue.send(tx.db, leadNoticeJob, { agencyId, businessId, submissionId });
    publish(tx, leadSubmitted, {
      agencyId,
      businessId,
      contactId: saved.contact.id,
      submissionId,
      leadFormId: form.id,
      installId: install.id,
    });
    tx.afterCommit(() =>
      announceConversationLead(ctx, { contact: saved.contact, submissionId }).catch((err: unknown) =>
        ctx.deps.log.warn({ err }, 'lead: the inbox was not told'),
      ),
    );
    return submissionId;
  });
  return {
    id,
    thanks: form.texts[lang]?.thanks?.trim() || LEAD_TEXT_DEFAULTS[lang].thanks,
    redirect_url: embed?.settings.redirect_url || null,
  };
}
