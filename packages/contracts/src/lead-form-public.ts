// A lead form as the website widget sees it, and the check of a visitor's answers, without zod: the widget's
// lead chunk (apps/widget) imports this file, the server (@stn/contracts/leadforms) checks a submission with
// the same `checkLeadAnswers`, so the visitor and the server agree on every message (issue 21, ADR 074).

/** The languages a lead form is written in (the widget's: en, es, br). */
export const LEAD_LANGUAGES = ['en', 'es', 'br'] as const;
export type TLeadLanguage = (typeof LEAD_LANGUAGES)[number];

/** The kinds of question a lead form offers. */
export const QUESTION_TYPES = [
  'short_text',
  'long_text',
  'email',
  'phone',
  'choice',
  'date',
  'number',
  'consent',
] as const;
export type TQuestionType = (typeof QUESTION_TYPES)[number];

/** A text per language; the form's languages must each have one. */
export type TLocalized = Partial<Record<TLeadLanguage, string>>;

/** What a question's answer fills on the contact: a contact attribute, or a custom field (`field:<key>`). */
export const CONTACT_TARGETS = [
  'first_name',
  'last_name',
  'name',
  'email',
  'phone',
  'birthday',
  'anniversary',
] as const;
export type TContactTarget = (typeof CONTACT_TARGETS)[number] | `field:${string}`;

export type TLeadOptionPublic = { id: string; label: TLocalized };

/** A question as the visitor sees it (no tag mapping: that is the business's own). */
export type TLeadQuestionPublic = {
  /** Stable within the form: the answers are keyed by it. */
  id: string;
  type: TQuestionType;
  label: TLocalized;
  placeholder: TLocalized;
  required: boolean;
  /** A choice question: several options may be picked (checkboxes), else one (radio buttons). */
  is_allow_multi_select: boolean;
  /** A choice question's options. */
  options: TLeadOptionPublic[];
};

export type TLeadStepPublic = { id: string; title: TLocalized; questions: TLeadQuestionPublic[] };

/** Spec 000 §3 lead form styling (padding 20, max width 500, colours). */
export type TLeadStyling = {
  Padding: number;
  MaxWidth: number;
  BackgroundColor: string;
  BorderColor: string;
  Color: string;
  ButtonColor: string;
  ButtonTextColor: string;
  Roudness: number;
};
export const LEAD_STYLING_DEFAULTS: TLeadStyling = {
  Padding: 20,
  MaxWidth: 500,
  BackgroundColor: '#FFFFFF',
  BorderColor: '#DDDDDD',
  Color: '#333333',
  ButtonColor: '#2991D1',
  ButtonTextColor: '#FFFFFF',
  Roudness: 8,
};

/** The form's own words per language; an empty one falls back to LEAD_TEXT_DEFAULTS. */
export const LEAD_TEXT_KEYS = ['title', 'description', 'next', 'back', 'submit', 'thanks'] as const;
export type TLeadTextKey = (typeof LEAD_TEXT_KEYS)[number];
export type TLeadTexts = Partial<Record<TLeadLanguage, Partial<Record<TLeadTextKey, string>>>>;

export const LEAD_TEXT_DEFAULTS: Record<TLeadLanguage, Record<TLeadTextKey, string>> = {
  en: {
    title: 'Leave your details',
    description: '',
    next: 'Next',
    back: 'Back',
    submit: 'Send',
    thanks: 'Thanks! We will be in touch soon.',
  },
  es: {
    title: 'Deja tus datos',
    description: '',
    next: 'Siguiente',
    back: 'Atrás',
    submit: 'Enviar',
    thanks: '¡Gracias! Nos pondremos en contacto pronto.',
  },
  br: {
    title: 'Deixe seus dados',
    description: '',
    next: 'Próximo',
    back: 'Voltar',
    submit: 'Enviar',
    thanks: 'Obrigado! Entraremos em contato em breve.',
  },
};

/** GET /api/widget/v1/lead-forms/{id}: what the widget draws. */
export type TLeadFormPublic = {
  id: number;
  name: string;
  languages: TLeadLanguage[];
  steps: TLeadStepPublic[];
  styling: TLeadStyling;
  texts: TLeadTexts;
};

/** The messages of a refused answer, in the widget's languages (the spec's phone text first). */
export const LEAD_MESSAGES: Record<TLeadLanguage, Record<TLeadMessageKey, string>> = {
  en: {
    'validation.required': 'This field is required',
    'validation.phone': 'Wrong phone number format!!',
    'validation.email': 'Please enter a valid email address.',
    'validation.number': 'Please enter a number.',
    'validation.date': 'Please enter a date.',
    'validation.consent': 'Please tick this box to go on.',
    'validation.invalid': 'This value is invalid.',
  },
  es: {
    'validation.required': 'Este campo es obligatorio',
    'validation.phone': '¡¡Formato de número de teléfono incorrecto!!',
    'validation.email': 'Introduce un correo electrónico válido.',
    'validation.number': 'Introduce un número.',
    'validation.date': 'Introduce una fecha.',
    'validation.consent': 'Marca esta casilla para continuar.',
    'validation.invalid': 'Este valor no es válido.',
  },
  br: {
    'validation.required': 'Este campo é obrigatório',
    'validation.phone': 'Formato de número de telefone errado!!',
    'validation.email': 'Informe um e-mail válido.',
    'validation.number': 'Informe um número.',
    'validation.date': 'Informe uma data.',
    'validation.consent': 'Marque esta caixa para continuar.',
    'validation.invalid': 'Este valor é inválido.',
  },
};
export type TLeadMessageKey =
  | 'validation.required'
  | 'validation.phone'
  | 'validation.email'
  | 'validation.number'
  | 'validation.date'
  | 'validation.consent'
  | 'validation.invalid';

/** A visitor's answer: text (text, e-mail, phone, date YYYY-MM-DD, number), option ids (choice), a tick. */
export type TLeadAnswer = string | string[] | boolean;
export type TLeadAnswers = Record<string, TLeadAnswer>;

/** A text of the form in `lang`, else in the form's first language, else ''. */
export function localized(
  text: TLocalized | undefined,
  lang: TLeadLanguage,
  fallback?: TLeadLanguage,
): string {
  const own = text?.[lang];
  if (own?.trim()) return own;
  const other = fallback ? text?.[fallback] : undefined;
  return other?.trim() ? other : '';
}

/** The language a visitor gets: theirs when the form has it, else the form's first. */
export function leadLanguage(
  form: Pick<TLeadFormPublic, 'languages'>,
  wanted: string | undefined,
): TLeadLanguage {
  const l = (wanted ?? '').toLowerCase().slice(0, 2);
  const lang = (l === 'pt' ? 'br' : l) as TLeadLanguage;
  return form.languages.includes(lang) ? lang : (form.languages[0] ?? 'en');
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A question's answer checked: the value to keep (normalised), or the key of its message. */
export function checkAnswer(
  q: TLeadQuestionPublic,
  value: TLeadAnswer | undefined,
  phoneToE164: (raw: string) => string | null,
): { value: TLeadAnswer | null } | { error: TLeadMessageKey } {
  if (q.type === 'consent') {
    const ticked = value === true;
    if (q.required && !ticked) return { error: 'validation.consent' };
    return { value: ticked };
  }
  if (q.type === 'choice') {
    const picked = (Array.isArray(value) ? value : typeof value === 'string' && value ? [value] : []).filter(
      (v, i, all) => typeof v === 'string' && all.indexOf(v) === i,
    );
    if (picked.length === 0) return q.required ? { error: 'validation.required' } : { value: null };
    if (!q.is_allow_multi_select && picked.length > 1) return { error: 'validation.invalid' };
    for (const id of picked) if (!q.options.some((o) => o.id === id)) return { error: 'validation.invalid' };
    return { value: picked };
  }
  if (value !== undefined && typeof value !== 'string') return { error: 'validation.invalid' };
  const text = (value ?? '').trim();
  if (!text) return q.required ? { error: 'validation.required' } : { value: null };
  const max = q.type === 'long_text' ? 5000 : 500;
  if (text.length > max) return { error: 'validation.invalid' };
  switch (q.type) {
    case 'email':
      return EMAIL.test(text) && text.length <= 191
        ? { value: text.toLowerCase() }
        : { error: 'validation.email' };
    case 'phone': {
      const e164 = phoneToE164(text);
      return e164 ? { value: e164 } : { error: 'validation.phone' };
    }
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text) ? { value: text } : { error: 'validation.number' };
    case 'date':
      return DATE.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))
        ? { value: text }
        : { error: 'validation.date' };
    default:
      return { value: text };
  }
}

/**
 * Every answer of the given steps (all of them when `steps` is omitted) checked: `errors` by question id
 * (a message key), `values` the normalised answers of the questions answered. The widget checks a step
 * before Next; the server checks the whole form.
 */
export function checkLeadAnswers(
  form: Pick<TLeadFormPublic, 'steps'>,
  answers: TLeadAnswers,
  phoneToE164: (raw: string) => string | null,
  steps?: number[],
): { errors: Record<string, TLeadMessageKey>; values: Record<string, TLeadAnswer> } {
  const errors: Record<string, TLeadMessageKey> = {};
  const values: Record<string, TLeadAnswer> = {};
  form.steps.forEach((step, i) => {
    if (steps && !steps.includes(i)) return;
    for (const q of step.questions) {
      const r = checkAnswer(q, Object.hasOwn(answers, q.id) ? answers[q.id] : undefined, phoneToE164);
      if ('error' in r) errors[q.id] = r.error;
      else if (r.value !== null) values[q.id] = r.value;
    }
  });
  return { errors, values };
}

/**
 * The widget's own words around a lead form (not the business's): the step indicator (`{n}`, `{total}`),
 * the mark of a required question, and what a refused or failed submission says above its fields.
 */
export const LEAD_UI_TEXTS: Record<TLeadLanguage, Record<TLeadUiKey, string>> = {
  en: {
    step: 'Step {n} of {total}',
    required: 'required',
    error: 'Please check the form.',
    exception: 'Sorry, something went wrong. Please try again.',
  },
  es: {
    step: 'Paso {n} de {total}',
    required: 'obligatorio',
    error: 'Revisa el formulario.',
    exception: 'Lo sentimos, algo salió mal. Inténtalo de nuevo.',
  },
  br: {
    step: 'Etapa {n} de {total}',
    required: 'obrigatório',
    error: 'Verifique o formulário.',
    exception: 'Desculpe, algo deu errado. Tente novamente.',
  },
};
export type TLeadUiKey = 'step' | 'required' | 'error' | 'exception';
