// The lead form's pure logic (no DOM): its texts with their defaults, its look as CSS custom properties, and
// where the server's refusals go. Unit tested (logic.test.ts). Plain for loops: a host page may patch
// Array.prototype.
import {
  LEAD_STYLING_DEFAULTS,
  LEAD_TEXT_DEFAULTS,
  LEAD_UI_TEXTS,
  type TLeadFormPublic,
  type TLeadLanguage,
  type TLeadTextKey,
  type TLeadUiKey,
} from '@stn/contracts/lead-form-public';
import { readable } from '../shared.ts';

/** One of the form's own words in `lang` (its `texts`), else the built-in one of that language. */
export function leadText(
  form: Pick<TLeadFormPublic, 'texts'>,
  lang: TLeadLanguage,
  key: TLeadTextKey,
): string {
  const own = form.texts?.[lang]?.[key];
  return typeof own === 'string' && own.trim() ? own : LEAD_TEXT_DEFAULTS[lang][key];
}

/** The widget's own words around the form; `{n}` and `{total}` filled in. */
export function leadUi(lang: TLeadLanguage, key: TLeadUiKey, n = 0, total = 0): string {
  return LEAD_UI_TEXTS[lang][key].replace('{n}', String(n)).replace('{total}', String(total));
}

/**
 * A 422's errors: each `answers.<question id>` by its question (its first message), and the first message
 * of any other key (`rest`), which the form shows above its buttons.
 */
export function serverErrors(errors: Record<string, string[]>): {
  byQuestion: Record<string, string>;
  rest: string;
} {
  const byQuestion: Record<string, string> = {};
  let rest = '';
  for (const k in errors) {
    if (!Object.hasOwn(errors, k)) continue;
    const msg = errors[k]?.[0] ?? '';
    if (k.slice(0, 8) === 'answers.') byQuestion[k.slice(8)] = msg;
    else rest = rest || msg;
  }
  return { byQuestion, rest };
}

/** The first question with an error, in the form's order, and its step; null when none has one. */
export function firstError(
  form: Pick<TLeadFormPublic, 'steps'>,
  errors: Record<string, unknown>,
): { step: number; question: string } | null {
  for (let s = 0; s < form.steps.length; s++) {
    const qs = form.steps[s]?.questions ?? [];
    for (let i = 0; i < qs.length; i++) {
      const id = qs[i]?.id as string;
      if (Object.hasOwn(errors, id)) return { step: s, question: id };
    }
  }
  return null;
}

/** Whether any question of the given steps (all when omitted) is of a type. */
export function hasType(form: Pick<TLeadFormPublic, 'steps'>, type: string, steps?: number[]): boolean {
  for (let s = 0; s < form.steps.length; s++) {
    let wanted = !steps;
    for (let i = 0; steps && i < steps.length; i++) if (steps[i] === s) wanted = true;
    if (!wanted) continue;
    const qs = form.steps[s]?.questions ?? [];
    for (let i = 0; i < qs.length; i++) if (qs[i]?.type === type) return true;
  }
  return false;
}

const COLOR = /^#[0-9a-f]{6}$/i;

/**
 * The form's look (its `styling`, spec §3) as CSS custom properties: padding, max width, colours and
 * roundness, each with its default when absent or bad. `button`: the install's colours for the buttons
 * instead of the form's (an embedded form's `use_install_style`). A button colour its text does not read on
 * (WCAG AA) is deepened as the widget's are; field errors take a red the background reads.
 */
export function leadVars(
  styling: Partial<Record<string, unknown>> | undefined,
  button?: { background: string; color: string },
): string {
  const st = (styling ?? {}) as Record<string, unknown>;
  const D = LEAD_STYLING_DEFAULTS as unknown as Record<string, string | number>;
  const c = (k: string) => {
    const v = st[k];
    return typeof v === 'string' && COLOR.test(v) ? v : (D[k] as string);
  };
  const n = (k: string, min: number, max: number) => {
    const v = st[k];
    return typeof v === 'number' && v >= min && v <= max ? Math.round(v) : (D[k] as number);
  };
  const bg = c('BackgroundColor');
  const bt = button && COLOR.test(button.color) ? button.color : c('ButtonTextColor');
  const bb = button && COLOR.test(button.background) ? button.background : c('ButtonColor');
  return (
    `--lp:${n('Padding', 0, 100)}px;--lw:${n('MaxWidth', 200, 1200)}px;--lr:${n('Roudness', 0, 50)}px;` +
    `--lbg:${bg};--lbd:${c('BorderColor')};--lc:${c('Color')};--lb:${readable(bb, bt)};--lbt:${bt};` +
    `--le:${readable('#C62828', bg)}`
  );
}

/** Whether `list` holds `x` (Array.prototype's own may be a page's patch). */
export function has<T>(list: readonly T[], x: T): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === x) return true;
  return false;
}
