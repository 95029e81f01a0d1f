import {
  checkLeadForm,
  LEAD_LANGUAGES,
  starterLeadForm,
  type TLeadForm,
  type TLeadFormRequest,
  type TLeadLanguage,
  type TLeadOption,
  type TLeadQuestion,
  type TQuestionType,
  ZLeadFormRequest,
} from '@stn/contracts/leadforms';
import { z } from '@stn/contracts/zod';

// The lead form builder's draft as plain data and the changes made to it (issue 21). The draft is the
// request as it will be sent (every default filled in), so what the preview shows and what is saved are the
// same thing; problems are keyed by the server's paths (`steps.0.questions.1.label.es`) so the browser's
// check and a refused save's 422 land on the same fields.

export type Draft = TLeadFormRequest;

/** The request's shape with a name that may still be empty (a new form, before it is named). */
const ZDraft = ZLeadFormRequest.extend({ name: z.string() });

/** A new form's draft: the contracts' starter (name, phone, e-mail) in the given languages. */
export function newDraft(languages: TLeadLanguage[] = ['en']): Draft {
  return ZDraft.parse(starterLeadForm(languages));
}

/** An existing form's draft. */
export function draftOf(form: TLeadForm): Draft {
  return ZDraft.parse({
    name: form.name,
    active: form.active,
    languages: form.languages,
    steps: form.steps,
    styling: form.styling,
    texts: form.texts,
    tag_ids: form.tag_ids,
  });
}

/** An id not among `taken`: `<prefix>-<n>`, n counting up from the number of ids already there. */
export function freshId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  let n = used.size + 1;
  while (used.has(`${prefix}-${n}`)) n++;
  return `${prefix}-${n}`;
}

const questionIds = (d: Draft) => d.steps.flatMap((s) => s.questions.map((q) => q.id));

export function newOption(question: Pick<TLeadQuestion, 'options'>): TLeadOption {
  return {
    id: freshId(
      'o',
      question.options.map((o) => o.id),
    ),
    label: {},
    tag_id: null,
  };
}

/** A new question of `type` (a choice starts with two options; the check asks for at least two). */
export function newQuestion(d: Draft, type: TQuestionType): TLeadQuestion {
  const q: TLeadQuestion = {
    id: freshId('q', questionIds(d)),
    type,
    label: {},
    placeholder: {},
    required: false,
    is_allow_multi_select: false,
    options: [],
    tag_id: null,
    map_to: null,
  };
  if (type === 'choice') {
    q.options.push(newOption(q));
    q.options.push(newOption(q));
  }
  return q;
}

/** A question given another type: options only for a choice, a consent's tag only for a consent. */
export function retype(q: TLeadQuestion, type: TQuestionType): TLeadQuestion {
  const next = { ...q, type };
  if (type !== 'choice') {
    next.options = [];
    next.is_allow_multi_select = false;
  } else if (q.options.length === 0) {
    next.options = [newOption(next)];
    next.options = [...next.options, newOption(next)];
  }
  if (type !== 'consent') next.tag_id = null;
  return next;
}

export function newStep(d: Draft): Draft['steps'][number] {
  return {
    id: freshId(
      'step',
      d.steps.map((s) => s.id),
    ),
    title: {},
    questions: [],
  };
}

/** `list` with the item at `from` moved to `to` (out of bounds: unchanged). */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  if (from < 0 || from >= list.length || to < 0 || to >= list.length || from === to) return [...list];
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item as T);
  return out;
}

/**
 * The form's languages changed: texts already typed in a language stay (switching it off and on again
 * loses nothing); the starter's questions get their words in a newly added language.
 */
export function withLanguages(d: Draft, languages: TLeadLanguage[]): Draft {
  const ordered = LEAD_LANGUAGES.filter((l) => languages.includes(l));
  if (ordered.length === 0) return d;
  const added = ordered.filter((l) => !d.languages.includes(l));
  const starter = starterLeadForm(added.length ? added : ['en']).steps[0];
  const steps = d.steps.map((s) => {
    const title = { ...s.title };
    if (starter && s.id === starter.id) for (const l of added) title[l] ||= starter.title?.[l] ?? '';
    return {
      ...s,
      title,
      questions: s.questions.map((q) => {
        const words = starter?.questions.find((w) => w.id === q.id);
        if (!words) return q;
        const label = { ...q.label };
        for (const l of added) label[l] ||= words.label?.[l] ?? '';
        return { ...q, label };
      }),
    };
  });
  return { ...d, languages: ordered, steps };
}

/**
 * Every problem of the draft by path, as the server would answer them: each field's rules (the request's
 * schema), then the form's own (checkLeadForm). Values are locale keys (maybe with params).
 */
export function problemsOf(d: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  const parsed = ZLeadFormRequest.safeParse(d);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const at = issue.path.map(String).join('.');
      errors[at] ??= issue.message;
    }
  for (const [at, key] of Object.entries(checkLeadForm(d))) errors[at] ??= key;
  return errors;
}

/** A 422's `errors` ({ path: [messages] }) as one message per path. */
export function serverProblems(errors: Record<string, string[]> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [at, messages] of Object.entries(errors ?? {})) if (messages[0]) out[at] = messages[0];
  return out;
}

/** Where a problem's path is: its step and its language (the builder switches to both). */
export function locate(path: string): { step: number | null; lang: TLeadLanguage | null } {
  const parts = path.split('.');
  const step = parts[0] === 'steps' && /^\d+$/.test(parts[1] ?? '') ? Number(parts[1]) : null;
  const isLang = (p: string | undefined): p is TLeadLanguage =>
    (LEAD_LANGUAGES as readonly string[]).includes(p ?? '');
  const last = parts[parts.length - 1];
  const lang = isLang(last) ? last : parts[0] === 'texts' && isLang(parts[1]) ? parts[1] : null;
  return { step, lang };
}

/** The first problem in the page's order (name, languages, steps by position, styling, tags, texts). */
export function firstProblem(errors: Record<string, string>): string | null {
  const keys = Object.keys(errors).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return keys[0] ?? null;
}

/** The form's problem paths of one question (its own and its options'), for a count on its card. */
export function problemsUnder(errors: Record<string, string>, prefix: string): string[] {
  return Object.keys(errors).filter((k) => k === prefix || k.startsWith(`${prefix}.`));
}

const STYLE_OR_TEXT = /^(styling)\.(\w+)$|^texts\.(en|es|br)\.(\w+)$/;

/**
 * The test id (and the focus target) of the field a problem's path names; a path with no field of its own
 * (a step's questions, a choice's options) names its container.
 */
export function testIdOf(path: string): string {
  const st = STYLE_OR_TEXT.exec(path);
  if (st) return st[1] ? `lf-style-${st[2]}` : `lf-text-${st[4]}-${st[3]}`;
  const p = path.split('.');
  if (p[0] === 'name') return 'lf-name';
  if (p[0] === 'languages') return 'lf-languages';
  if (p[0] === 'tag_ids') return 'lf-tags';
  if (p[0] !== 'steps') return 'lf-form';
  const [, s, k, i, field, ...rest] = p;
  if (s === undefined) return 'lf-steps';
  if (k === 'title') return `lf-step-${s}-title-${i ?? 'en'}`;
  if (k !== 'questions' || i === undefined) return `lf-step-${s}`;
  const q = `${s}-${i}`;
  switch (field) {
    case 'label':
    case 'placeholder':
      return `lf-q-${q}-${field}-${rest[0] ?? 'en'}`;
    case 'required':
    case 'type':
      return `lf-q-${q}-${field}`;
    case 'map_to':
      return `lf-q-${q}-map`;
    case 'tag_id':
      return `lf-q-${q}-tag`;
    case 'is_allow_multi_select':
      return `lf-q-${q}-multi`;
    case 'options': {
      const [j, of, lang] = rest;
      if (j === undefined) return `lf-q-${q}-options`;
      if (of === 'label') return `lf-opt-${q}-${j}-label-${lang ?? 'en'}`;
      if (of === 'tag_id') return `lf-opt-${q}-${j}-tag`;
      return `lf-opt-${q}-${j}`;
    }
    default:
      return `lf-q-${q}`;
  }
}
