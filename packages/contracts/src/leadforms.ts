import { listOf, ZListQuery } from './http.ts';
import {
  CONTACT_TARGETS,
  LEAD_LANGUAGES,
  LEAD_STYLING_DEFAULTS,
  LEAD_TEXT_KEYS,
  QUESTION_TYPES,
  type TLeadFormPublic,
  type TLeadLanguage,
} from './lead-form-public.ts';
import { z } from './zod.ts';

export * from './lead-form-public.ts';

// Lead forms and embedded forms (spec 000 §2 business `leadForms` and `installs/:install/forms`, §3 Lead
// form and the Install's is_enable_lead_form and lead_form_id; spec 001 "Lead forms" and the Installs
// "Forms" calls; issue 21, ADR 074).
//
// A lead form is steps of questions, written once with a text per language (en, es, br): the answers,
// options and tags are the same whatever the visitor's language. A choice's options and a consent each
// may carry a tag the contact gets when picked or ticked; `tag_ids` are given to every submission. A
// question may fill a contact attribute or custom field (`map_to`); every form has a required phone
// question mapped to the phone (a contact is a phone number), found by phone, else by e-mail.
//
// An embedded form (per install) places a lead form inline on a page of the business's site: the embed
// code is a placeholder element `<div data-stn-form="{embed id}"></div>` and the install's widget.js.
//
//   POST   /v1/leadForm                     ZLeadFormRequest -> ZLeadFormAnswer
//   GET    /v1/allLeadForms                 ZLeadFormListQuery -> ZLeadFormList (data, meta)
//   GET    /v1/leadForm/{id}                ZLeadFormAnswer
//   PUT    /v1/leadForm/{id}                ZLeadFormRequest -> ZLeadFormAnswer
//   DELETE /v1/leadForm/{id}                (soft; installs that showed it stop showing it)
//   POST   /v1/leadForm/{id}/toggle-active  ZLeadFormAnswer
//   GET    /v1/leadSubmissions              ZLeadSubmissionListQuery -> ZLeadSubmissionList
//   GET    /v1/leadSubmissions/{id}         ZLeadSubmissionAnswer
//
//   GET    /v1/installs/{install_id}/forms                     ZEmbeddedFormList
//   GET    /v1/installs/{install_id}/forms/{id}                ZEmbeddedFormAnswer
//   POST   /v1/installs/{install_id}/forms                     ZEmbeddedFormRequest -> ZEmbeddedFormAnswer
//   PUT    /v1/installs/{install_id}/forms/{id}                ZEmbeddedFormRequest -> ZEmbeddedFormAnswer
//   DELETE /v1/installs/{install_id}/forms/{id}
//   POST   /v1/installs/{install_id}/forms/{id}/toggle-active  ZEmbeddedFormAnswer
//
// The widget tree (install key; CORS, throttles and honeypot as the widget's other calls):
//   GET  /api/widget/v1/lead-form           TLeadFormPublic: the install's lead form (404 when none is on)
//   GET  /api/widget/v1/forms/{id}          TWidgetEmbeddedForm: an embedded form of this install
//   POST /api/widget/v1/lead                ZWidgetLeadRequest -> TWidgetLeadAnswer (422 keyed
//                                           `answers.<question id>`, in the visitor's language)

export const ZLeadLanguage = z.enum(LEAD_LANGUAGES);
export const ZQuestionType = z.enum(QUESTION_TYPES);

/** A text per language; which languages must be there is the form's check (checkLeadForm). */
export const ZLocalized = z
  .object({
    en: z.string().trim().max(500).optional(),
    es: z.string().trim().max(500).optional(),
    br: z.string().trim().max(500).optional(),
  })
  .default({});

const zId = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'validation.invalid' });

const zColor = () => z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'validation.invalid' });

export const ZContactTarget = z.union([
  z.enum(CONTACT_TARGETS),
  z
    .string()
    .regex(/^field:[a-z][a-z0-9_]*$/, { message: 'validation.invalid' }) as z.ZodType<`field:${string}`>,
]);

export const ZLeadOption = z.object({
  id: zId(),
  label: ZLocalized,
  /** The tag the contact gets when this option is picked. */
  tag_id: z.number().int().positive().nullable().default(null),
});
export type TLeadOption = z.infer<typeof ZLeadOption>;

export const ZLeadQuestion = z.object({
  id: zId(),
  type: ZQuestionType,
  label: ZLocalized,
  placeholder: ZLocalized,
  required: z.boolean().default(false),
  is_allow_multi_select: z.boolean().default(false),
  options: z.array(ZLeadOption).max(30).default([]),
  /** A consent's tag: given when it is ticked. */
  tag_id: z.number().int().positive().nullable().default(null),
  /** The contact attribute or custom field (`field:<key>`) the answer fills. */
  map_to: ZContactTarget.nullable().default(null),
});
export type TLeadQuestion = z.infer<typeof ZLeadQuestion>;

export const ZLeadStep = z.object({
  id: zId(),
  title: ZLocalized,
  questions: z.array(ZLeadQuestion).max(20),
});
export type TLeadStep = z.infer<typeof ZLeadStep>;

export const ZLeadStyling = z
  .object({
    Padding: z.number().int().min(0).max(100).default(LEAD_STYLING_DEFAULTS.Padding),
    MaxWidth: z.number().int().min(200).max(1200).default(LEAD_STYLING_DEFAULTS.MaxWidth),
    BackgroundColor: zColor().default(LEAD_STYLING_DEFAULTS.BackgroundColor),
    BorderColor: zColor().default(LEAD_STYLING_DEFAULTS.BorderColor),
    Color: zColor().default(LEAD_STYLING_DEFAULTS.Color),
    ButtonColor: zColor().default(LEAD_STYLING_DEFAULTS.ButtonColor),
    ButtonTextColor: zColor().default(LEAD_STYLING_DEFAULTS.ButtonTextColor),
    Roudness: z.number().int().min(0).max(50).default(LEAD_STYLING_DEFAULTS.Roudness),
  })
  .default(LEAD_STYLING_DEFAULTS);

const zTextsOfLanguage = () =>
  z.object(
    Object.fromEntries(LEAD_TEXT_KEYS.map((k) => [k, z.string().trim().max(500).optional()])) as Record<
      (typeof LEAD_TEXT_KEYS)[number],
      z.ZodOptional<z.ZodString>
    >,
  );
export const ZLeadTexts = z
  .object({
    en: zTextsOfLanguage().optional(),
    es: zTextsOfLanguage().optional(),
    br: zTextsOfLanguage().optional(),
  })
  .default({});

/** Create and update (PUT sends the whole form). */
export const ZLeadFormRequest = z.object({
  name: z.string().trim().min(1).max(191),
  active: z.boolean().default(true),
  languages: z.array(ZLeadLanguage).min(1).max(3).default(['en']),
  steps: z.array(ZLeadStep).min(1).max(10),
  styling: ZLeadStyling,
  texts: ZLeadTexts,
  /** Tags every submission gives the contact. */
  tag_ids: z.array(z.number().int().positive()).max(20).default([]),
});
export type TLeadFormRequest = z.infer<typeof ZLeadFormRequest>;
export type TLeadFormInput = z.input<typeof ZLeadFormRequest>;

export const ZLeadForm = z.object({
  id: z.number().int(),
  name: z.string(),
  active: z.boolean(),
  languages: z.array(ZLeadLanguage),
  steps: z.array(ZLeadStep),
  styling: ZLeadStyling,
  texts: ZLeadTexts,
  tag_ids: z.array(z.number().int()),
  /** Spec §3: true when a choice question lets the visitor pick several options. */
  is_allow_multi_select: z.boolean(),
  /** Submissions received so far. */
  submissions: z.number().int(),
  /** Installs showing it in their widget, and embedded forms placing it. */
  installs: z.array(z.object({ id: z.number().int(), name: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TLeadForm = z.infer<typeof ZLeadForm>;

export const ZLeadFormListQuery = ZListQuery.extend({
  search: z.string().trim().max(200).optional(),
  status: z.enum(['active', 'inactive']).optional(),
});
export type TLeadFormListQuery = z.infer<typeof ZLeadFormListQuery>;
export const ZLeadFormList = listOf(ZLeadForm);
export const ZLeadFormAnswer = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: ZLeadForm,
});

/**
 * The form's own rules beyond each field's (the server refuses a save breaking them with 422, the builder
 * shows each at its place): keys are paths (`steps.0.questions.1.label.es`), values locale keys.
 * - every language of the form has the step titles optional, but each question's label and each option's;
 * - question ids are unique in the form, option ids in their question; a step has at least one question;
 * - a choice has at least two options; only a choice may have options or allow several;
 * - exactly one question is mapped to the phone, of type phone and required;
 * - a target is filled by one question at most; e-mail targets an e-mail question, birthday and
 *   anniversary a date question.
 */
export function checkLeadForm(form: Pick<TLeadFormRequest, 'languages' | 'steps'>): Record<string, string> {
  const errors: Record<string, string> = {};
  const ids = new Set<string>();
  const targets = new Map<string, string>();
  let phones = 0;
  form.steps.forEach((step, s) => {
    if (step.questions.length === 0) errors[`steps.${s}.questions`] = 'leadforms.step_empty';
    step.questions.forEach((q, i) => {
      const at = `steps.${s}.questions.${i}`;
      if (ids.has(q.id)) errors[`${at}.id`] = 'leadforms.question_duplicate';
      ids.add(q.id);
      for (const lang of form.languages)
        if (!q.label?.[lang]?.trim()) errors[`${at}.label.${lang}`] = 'validation.required';
      if (q.type === 'choice') {
        if (q.options.length < 2) errors[`${at}.options`] = 'leadforms.choice_options';
        const optionIds = new Set<string>();
        q.options.forEach((o, j) => {
          if (optionIds.has(o.id)) errors[`${at}.options.${j}.id`] = 'leadforms.option_duplicate';
          optionIds.add(o.id);
          for (const lang of form.languages)
            if (!o.label?.[lang]?.trim()) errors[`${at}.options.${j}.label.${lang}`] = 'validation.required';
        });
      } else if (q.options.length > 0) errors[`${at}.options`] = 'validation.invalid';
      if (q.map_to) {
        const first = targets.get(q.map_to);
        if (first) errors[`${at}.map_to`] = 'leadforms.target_duplicate';
        else targets.set(q.map_to, at);
        const needs: Partial<Record<string, string>> = {
          phone: 'phone',
          email: 'email',
          birthday: 'date',
          anniversary: 'date',
        };
        const type = needs[q.map_to];
        if (type && q.type !== type) errors[`${at}.map_to`] = 'leadforms.target_type';
        if (q.map_to === 'phone') {
          phones++;
          if (!q.required) errors[`${at}.required`] = 'leadforms.phone_required';
        }
      }
    });
  });
  if (phones === 0) errors.steps = 'leadforms.phone_missing';
  return errors;
}

/** The form as the visitor gets it: no tags, no counts. */
export function publicLeadForm(form: TLeadForm | (TLeadFormRequest & { id: number })): TLeadFormPublic {
  return {
    id: form.id,
    name: form.name,
    languages: form.languages as TLeadLanguage[],
    styling: form.styling,
    texts: form.texts,
    steps: form.steps.map((s) => ({
      id: s.id,
      title: s.title,
      questions: s.questions.map((q) => ({
        id: q.id,
        type: q.type,
        label: q.label,
        placeholder: q.placeholder,
        required: q.required,
        is_allow_multi_select: q.is_allow_multi_select,
        options: q.options.map((o) => ({ id: o.id, label: o.label })),
      })),
    })),
  };
}

/** A new form's first step: name, phone (required, the contact's) and e-mail, in the form's languages. */
export function starterLeadForm(languages: TLeadLanguage[] = ['en']): TLeadFormInput {
  const words = {
    name: { en: 'Your name', es: 'Tu nombre', br: 'Seu nome' },
    phone: { en: 'Phone number', es: 'Número de teléfono', br: 'Número de telefone' },
    email: { en: 'E-mail', es: 'Correo electrónico', br: 'E-mail' },
    step: { en: 'About you', es: 'Sobre ti', br: 'Sobre você' },
  };
  const pick = (w: Record<TLeadLanguage, string>) => Object.fromEntries(languages.map((l) => [l, w[l]]));
  return {
    name: '',
    languages,
    steps: [
      {
        id: 'step-1',
        title: pick(words.step),
        questions: [
          { id: 'name', type: 'short_text', label: pick(words.name), required: false, map_to: 'name' },
          { id: 'phone', type: 'phone', label: pick(words.phone), required: true, map_to: 'phone' },
          { id: 'email', type: 'email', label: pick(words.email), required: false, map_to: 'email' },
        ],
      },
    ],
  };
}

// ---------------------------------------------------------------- submissions

export const ZLeadSubmission = z.object({
  id: z.number().int(),
  lead_form_id: z.number().int(),
  form_name: z.string(),
  embedded_form_id: z.number().int().nullable(),
  install_id: z.number().int().nullable(),
  contact_id: z.number().int().nullable(),
  /** Spec §9 Target kinds: a lead is 3. */
  target_kind: z.literal(3),
  /** Where it was sent from: the widget's lead form, or an embedded form. */
  source: z.enum(['widget', 'embed']),
  language: ZLeadLanguage,
  /** Each answered question in the form's order, as the visitor saw it (label and answer in their language). */
  answers: z.array(
    z.object({ question_id: z.string(), label: z.string(), type: ZQuestionType, value: z.string() }),
  ),
  /** Each consent question: its text as shown, and whether it was given. */
  consents: z.array(z.object({ question_id: z.string(), text: z.string(), given: z.boolean() })),
  /** Tags the submission gave the contact. */
  tags: z.array(z.object({ id: z.number().int(), name: z.string() })),
  page_url: z.string().nullable(),
  created_at: z.string(),
});
export type TLeadSubmission = z.infer<typeof ZLeadSubmission>;

export const ZLeadSubmissionListQuery = ZListQuery.extend({
  contact_id: z.coerce.number().int().positive().optional(),
  lead_form_id: z.coerce.number().int().positive().optional(),
  install_id: z.coerce.number().int().positive().optional(),
});
export type TLeadSubmissionListQuery = z.infer<typeof ZLeadSubmissionListQuery>;
export const ZLeadSubmissionList = listOf(ZLeadSubmission);
export const ZLeadSubmissionAnswer = z.object({ success: z.literal(true), data: ZLeadSubmission });

// ---------------------------------------------------------------- embedded forms (per install)

export const ZEmbeddedFormSettings = z
  .object({
    /** The form's language: the visitor's browser's (auto), or a fixed one of the lead form's. */
    language: z.enum(['auto', ...LEAD_LANGUAGES]).default('auto'),
    /** Show the form's title and description above the questions. */
    show_title: z.boolean().default(true),
    /** Take the install's widget colours (its primary colour for the buttons) instead of the lead form's. */
    use_install_style: z.boolean().default(true),
    /** After sending: a page of the business's site to go to, else the thanks text in place. */
    redirect_url: z
      .string()
      .trim()
      .max(500)
      .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), { message: 'validation.url' })
      .default(''),
  })
  .default({ language: 'auto', show_title: true, use_install_style: true, redirect_url: '' });
export type TEmbeddedFormSettings = z.infer<typeof ZEmbeddedFormSettings>;

export const ZEmbeddedFormRequest = z.object({
  name: z.string().trim().min(1).max(191),
  lead_form_id: z.number({ message: 'validation.required' }).int().positive(),
  active: z.boolean().default(true),
  settings: ZEmbeddedFormSettings,
});
export type TEmbeddedFormRequest = z.infer<typeof ZEmbeddedFormRequest>;

export const ZEmbeddedForm = z.object({
  id: z.number().int(),
  install_id: z.number().int(),
  name: z.string(),
  lead_form_id: z.number().int(),
  lead_form_name: z.string(),
  active: z.boolean(),
  settings: ZEmbeddedFormSettings,
  submissions: z.number().int(),
  /** The HTML to paste where the form goes: the placeholder element and the install's widget.js. */
  embed_code: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TEmbeddedForm = z.infer<typeof ZEmbeddedForm>;
export const ZEmbeddedFormList = listOf(ZEmbeddedForm);
export const ZEmbeddedFormAnswer = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: ZEmbeddedForm,
});

// ---------------------------------------------------------------- the widget tree

/** GET /api/widget/v1/forms/{id}: an embedded form, its lead form and the look it takes. */
export type TWidgetEmbeddedForm = {
  id: number;
  settings: TEmbeddedFormSettings;
  form: TLeadFormPublic;
};

/** POST /api/widget/v1/lead. `website` is the honeypot (filled: answered and ignored). */
export const ZWidgetLeadRequest = z.object({
  form_id: z.number().int().positive(),
  /** The embedded form it was sent from; absent: the install's widget lead form. */
  embed_id: z.number().int().positive().optional(),
  language: ZLeadLanguage.default('en'),
  answers: z.record(
    z.string().max(40),
    z.union([z.string().max(5000), z.array(z.string().max(40)).max(30), z.boolean()]),
  ),
  page_url: z.string().max(1000).optional(),
  website: z.string().max(500).optional(),
});
export type TWidgetLeadRequest = z.infer<typeof ZWidgetLeadRequest>;

export type TWidgetLeadAnswer = {
  /** The submission's id (0 for a honeypot's). */
  id: number;
  /** The thanks text in the visitor's language. */
  thanks: string;
  /** A page to go to instead (an embedded form's redirect). */
  redirect_url: string | null;
};

// ---------------------------------------------------------------- the widget tree's answers as schemas

// The widget tree serializes every answer through a response schema (ADR 055): these are the zod forms of
// `TLeadFormPublic`, `TWidgetEmbeddedForm` and `TWidgetLeadAnswer` (the widget's bundle keeps to the types).

export const ZLeadFormPublic = z.object({
  id: z.number().int(),
  name: z.string(),
  languages: z.array(ZLeadLanguage),
  styling: ZLeadStyling,
  texts: ZLeadTexts,
  steps: z.array(
    z.object({
      id: z.string(),
      title: ZLocalized,
      questions: z.array(
        z.object({
          id: z.string(),
          type: ZQuestionType,
          label: ZLocalized,
          placeholder: ZLocalized,
          required: z.boolean(),
          is_allow_multi_select: z.boolean(),
          options: z.array(z.object({ id: z.string(), label: ZLocalized })),
        }),
      ),
    }),
  ),
}) satisfies z.ZodType<TLeadFormPublic>;

export const ZWidgetEmbeddedForm = z.object({
  id: z.number().int(),
  settings: ZEmbeddedFormSettings,
  form: ZLeadFormPublic,
}) satisfies z.ZodType<TWidgetEmbeddedForm>;

export const ZWidgetLeadAnswer = z.object({
  id: z.number().int(),
  thanks: z.string(),
  redirect_url: z.string().nullable(),
}) satisfies z.ZodType<TWidgetLeadAnswer>;
