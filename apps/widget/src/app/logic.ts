// The widget's pure logic (no DOM): its settings with their defaults, its texts, the visitor's checks and
// the schedule's days. Unit tested (logic.test.ts). Plain for loops: a host page may patch Array.prototype.
import {
  type TWidgetLanguage,
  type TWidgetMessageKey,
  type TWidgetTextKey,
  type TWidgetUiKey,
  validWidgetName,
  WIDGET_MESSAGES,
  WIDGET_TEXT_DEFAULTS,
  WIDGET_UI_TEXTS,
} from '@stn/contracts/widget-texts';
import { pick } from '../triggers.ts';

// biome-ignore lint/suspicious/noExplicitAny: settings are free-form JSON here, read defensively.
type Loose = any;

const COLOR = /^#[0-9a-fA-F]{6}$/;
const color = (o: Loose, k: string, d: string) => {
  const v = pick(o, k, d);
  return COLOR.test(v) ? v : d;
};
const int = (o: Loose, k: string, d: number, min: number, max: number) => {
  const v = pick(o, k, d);
  return v >= min && v <= max ? Math.round(v) : d;
};
const bool = (o: Loose, k: string, d: boolean) => pick(o, k, d);

const isLang = (v: unknown): v is TWidgetLanguage => v === 'en' || v === 'es' || v === 'br';

/** The install's settings the widget reads, each with the default of spec 000 §9 when absent or bad. */
export function readSettings(raw: Loose) {
  const s = raw && typeof raw === 'object' ? raw : {};
  const lang = pick(s, 'language', 'en');
  const language: TWidgetLanguage = isLang(lang) ? lang : 'en';
  // The languages the visitor may pick: the install's own first, always (as the edit screen's preview
  // offers them), then the list's, each once; a list without it still leaves it reachable.
  const languageList: TWidgetLanguage[] = [language];
  const list = pick(s, 'languageList', [] as Loose);
  for (let i = 0; i < (list.length ?? 0); i++) {
    const l = list[i];
    let known = false;
    for (let j = 0; j < languageList.length; j++) if (languageList[j] === l) known = true;
    if (isLang(l) && !known) languageList[languageList.length] = l;
  }
  const colors = pick(s, 'colors', {} as Loose);
  const st = pick(s, 'styling', {} as Loose);
  const inp = pick(s, 'input', {} as Loose);
  const res = pick(s, 'response', {} as Loose);
  const redirect = pick(res, 'RedirectUrl', '').trim();
  return {
    language,
    languageList,
    texts: pick(s, 'texts', {} as Loose) as Record<string, Record<string, string>>,
    callbackSeconds: int(s, 'callback_seconds', 14, 1, 600),
    primary: color(colors, 'primary', '#2991D1'),
    primaryText: color(colors, 'text', '#FFFFFF'),
    left: pick(s, 'position', 'bottom-right') === 'bottom-left',
    marginX: int(pick(s, 'margins', {} as Loose), 'x', 20, 0, 200),
    marginY: int(pick(s, 'margins', {} as Loose), 'y', 20, 0, 200),
    gdpr: bool(s, 'gdpr_consent', false),
    promotion: bool(s, 'promotion_consent', false),
    styling: {
      background: color(st, 'BackgroundColor', '#FFFFFF'),
      border: color(st, 'BorderColor', '#DDDDDD'),
      radius: int(st, 'Roudness', 8, 0, 50),
      maxWidth: int(st, 'MaxWidth', 500, 200, 1200),
      padding: int(st, 'Padding', 20, 0, 100),
    },
    input: {
      background: color(inp, 'BackgroundColor', '#FFFFFF'),
      color: color(inp, 'Color', '#333333'),
      border: color(inp, 'BorderColor', '#CCCCCC'),
      radius: int(inp, 'Roudness', 4, 0, 50),
      padding: int(inp, 'Padding', 8, 0, 100),
      name: bool(inp, 'IsEnableName', true),
      nameRequired: bool(inp, 'IsRequiredName', false),
      nameValidation: bool(inp, 'IsEnableNameValidation', false),
      email: bool(inp, 'IsEnableEmail', false),
      emailRequired: bool(inp, 'IsRequiredEmail', false),
    },
    response: {
      success: color(res, 'SuccessColor', '#2E7D32'),
      error: color(res, 'ErrorColor', '#C62828'),
      fontSize: int(res, 'FontSize', 14, 8, 48),
      align: pick(res, 'Align', 'center'),
      padding: int(res, 'Padding', 10, 0, 100),
      redirect: bool(res, 'IsEnableRedirect', false) && /^https?:\/\/\S+$/i.test(redirect) ? redirect : null,
      redirectBlank: bool(res, 'IsRedirectBlankPage', false),
    },
  };
}
export type WidgetSettings = ReturnType<typeof readSettings>;

/** A text of the widget: the install's for that language, else the built-in one. */
export function text(s: WidgetSettings, lang: TWidgetLanguage, key: TWidgetTextKey): string {
  const own = s.texts[lang];
  const v = own && typeof own === 'object' ? own[key] : undefined;
  return typeof v === 'string' && v.trim() ? v : WIDGET_TEXT_DEFAULTS[lang][key];
}

export const ui = (lang: TWidgetLanguage, key: TWidgetUiKey) => WIDGET_UI_TEXTS[lang][key];
export const message = (lang: TWidgetLanguage, key: TWidgetMessageKey) => WIDGET_MESSAGES[lang][key];

/** `{name}` placeholders replaced. */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, k: string) => (Object.hasOwn(vars, k) ? String(vars[k]) : all));
}

/** The locale Intl formats the visitor's dates in. */
export const LOCALES: Record<TWidgetLanguage, string> = { en: 'en-US', es: 'es', br: 'pt-BR' };

/** A name, when the install asks for validation: two letters at least, no digits. */
/** The install's name check (the server makes the same one). */
export const validName = validWidgetName;

export function validEmail(email: string): boolean {
  return email.length <= 191 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

export type SlotDay = { key: string; label: string; slots: { at: string; label: string }[] };

/**
 * The slots (ISO instants) grouped by day and labelled in the visitor's time zone (`timeZone`, the
 * browser's when undefined), in the order given.
 */
export function groupSlots(slots: string[], lang: TWidgetLanguage, timeZone?: string): SlotDay[] {
  const locale = LOCALES[lang];
  const dayKey = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const dayLabel = new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'long',
    month: 'long',
    day: 'numeric',
  });
  const time = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' });
  const days: SlotDay[] = [];
  for (let i = 0; i < slots.length; i++) {
    const at = slots[i] as string;
    const d = new Date(at);
    if (Number.isNaN(d.getTime())) continue;
    const key = dayKey.format(d);
    let day = days[days.length - 1];
    if (!day || day.key !== key) {
      day = { key, label: dayLabel.format(d), slots: [] };
      days[days.length] = day;
    }
    day.slots[day.slots.length] = { at, label: time.format(d) };
  }
  return days;
}

/** An instant as the visitor reads it (their zone), e.g. "Monday, March 2, 10:30 AM". */
export function formatInstant(at: string, lang: TWidgetLanguage, timeZone?: string): string {
  return new Intl.DateTimeFormat(LOCALES[lang], {
    timeZone,
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(at));
}

/** Sample slots for the preview (no API): the next three days, 10:00 to 11:30 local time. */
export function previewSlots(now: Date): string[] {
  const out: string[] = [];
  for (let day = 1; day <= 3; day++) {
    for (let half = 0; half < 4; half++) {
      const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + day, 10, half * 30);
      out[out.length] = d.toISOString();
    }
  }
  return out;
}

/** `list.map(fn)` without Array.prototype (a host page may have patched it). */
export function each<T, R>(list: readonly T[], fn: (item: T, i: number) => R): R[] {
  const out: R[] = [];
  for (let i = 0; i < list.length; i++) out[i] = fn(list[i] as T, i);
  return out;
}

/**
 * What the callback's answer shows for the call's progress, so that it never contradicts itself: the
 * success title and the countdown only while someone is being found (at 0 the countdown says "any moment
 * now", never "within 0 seconds"); a missed call shows the missed message alone, in the error colour.
 */
export function callView(call: { seconds: number; status: string }): {
  title: boolean;
  countdown: 'seconds' | 'soon' | null;
  tone: 'ok' | 'ko' | null;
} {
  if (call.status === 'missed') return { title: false, countdown: null, tone: 'ko' };
  if (call.status !== 'finding') return { title: true, countdown: null, tone: null };
  return { title: true, countdown: call.seconds > 0 ? 'seconds' : 'soon', tone: null };
}

/** Whether a visitor token says its phone was proven (ADR 048); the server checks it again on every call. */
export function tokenVerified(token: string | null): boolean {
  const payload = token?.split('.')[1];
  if (!payload) return false;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    return (JSON.parse(json) as { v?: number }).v === 1;
  } catch {
    return false;
  }
}
