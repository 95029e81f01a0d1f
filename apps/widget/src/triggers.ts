// The trigger buttons, in plain DOM: the loader draws them before any of the app is loaded, and the app's
// preview draws the same ones. No array methods of the page (a page may patch them): plain for loops.
import type { TWidgetConfig } from '@stn/contracts/widget';
import { pick, readable } from './shared.ts';
import type { Mode } from './types.ts';

export { addCss, contrast, pick, readable } from './shared.ts';

/**
 * The built-in trigger labels: CallLabel, MessageLabel, ScheduleLabel, LeadLabel (WIDGET_TEXT_DEFAULTS'; a
 * test keeps them equal).
 */
export const TRIGGER_LABELS: Record<string, [string, string, string, string]> = {
  en: ['Call me back', 'Text us', 'Schedule a call', 'Leave your details'],
  es: ['Llámame', 'Escríbenos', 'Programar una llamada', 'Deja tus datos'],
  br: ['Me ligue', 'Mande uma mensagem', 'Agendar uma ligação', 'Deixe seus dados'],
};
const LABEL_KEYS = ['CallLabel', 'MessageLabel', 'ScheduleLabel', 'LeadLabel'];

// biome-ignore lint/suspicious/noExplicitAny: settings are free-form JSON here, read defensively.
type Loose = any;

/** The install's widget_type (the config's, else the settings'). */
export function widgetType(config: TWidgetConfig): 1 | 2 | 3 {
  const t = config.widget_type ?? pick(config.settings, 'widget_type', 3);
  return t === 1 || t === 2 ? t : 3;
}

/** The panel's first mode: calls unless the install only texts; a schedule when closed. */
export function defaultMode(config: TWidgetConfig): Mode {
  if (widgetType(config) === 2) return 'text';
  return config.open_now === false ? 'schedule' : 'call';
}

/** A trigger button: the mode it opens (its test id is `stn-trigger-<mode>`) and its label. */
export type TriggerSpec = { mode: Mode; label: string };

/** One trigger per mode the install offers, labelled in `lang`; the lead form's when it has one. */
export function triggerSpecs(config: TWidgetConfig, lang: string): TriggerSpec[] {
  const texts = pick(pick(config.settings, 'texts', {} as Loose), lang, {} as Loose);
  const builtIn = TRIGGER_LABELS[lang] ?? (TRIGGER_LABELS.en as string[]);
  const type = widgetType(config);
  const out: TriggerSpec[] = [];
  const add = (mode: Mode, i: number) => {
    const v = texts[LABEL_KEYS[i] as string];
    out[out.length] = { mode, label: typeof v === 'string' && v.trim() ? v : (builtIn[i] as string) };
  };
  if (type !== 2) {
    if (config.open_now === false) add('schedule', 2);
    else add('call', 0);
  }
  if (type !== 1) add('text', 1);
  if (config.lead_form_id) add('lead', 3);
  return out;
}

/**
 * The trigger bar's style: the trigger buttons' settings as CSS custom properties, and its side of the
 * page. Values are the server-validated settings; a bad one (a preview's) makes its property invalid and
 * the CSS default applies.
 */
export function triggerVars(settings: Loose): string {
  const tb = pick(settings, 'triggerButton', {} as Loose);
  const margins = pick(settings, 'margins', {} as Loose);
  const align = pick(tb, 'Align', 'center');
  const fg = pick(tb, 'Color', '#FFFFFF');
  const px = (obj: Loose, k: string, d: number) => `${pick(obj, k, d)}px`;
  return (
    `--c:${fg};--b:${readable(pick(tb, 'BackgroundColor', '#2991D1'), fg)};` +
    `--h:${readable(pick(tb, 'HoverBackgroundColor', '#1a76d2'), fg)};--r:${px(tb, 'Roudness', 24)};` +
    `--f:${px(tb, 'FontSize', 16)};--p:${px(tb, 'Padding', 10)};` +
    `--a:${align === 'left' ? 'flex-start' : align === 'right' ? 'flex-end' : 'center'};` +
    `--x:${px(margins, 'x', 20)};--y:${px(margins, 'y', 20)};` +
    `${pick(settings, 'position', '') === 'bottom-left' ? 'left' : 'right'}:var(--x)`
  );
}

/** Every rule of the widget's shadow root starts from nothing: the page's styles do not reach in. */
export const HOST_CSS = ':host{all:initial!important}*{box-sizing:border-box}';

export const TRIGGER_CSS =
  // The buttons side by side, all as wide as the widest, so that Align places each label in its own.
  '.bar{position:fixed;bottom:var(--y);z-index:2147483647;display:grid;grid-auto-flow:column;' +
  'grid-auto-columns:1fr;gap:8px}' +
  '.t{display:flex;align-items:center;justify-content:var(--a);gap:8px;min-height:44px;margin:0;' +
  'border:0;cursor:pointer;color:var(--c);background:var(--b);border-radius:var(--r);' +
  'font:600 var(--f)/1.2 system-ui,sans-serif;padding:var(--p) calc(var(--p)*1.6);' +
  'box-shadow:0 4px 14px #0004}' +
  '.t:hover{background:var(--h)}' +
  '.t:focus-visible{outline:3px solid #111;outline-offset:2px;box-shadow:0 0 0 6px #fff}' +
  '.t svg,.t img{width:1.25em;height:1.25em;fill:currentColor}';

// A phone (a callback or a scheduled call), a speech bubble and the lines of a form.
const CALL_ICON =
  'M6.6 10.8a15.2 15.2 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1z';
const TEXT_ICON = 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 1-2z';
const LEAD_ICON = 'M3 4h18v3H3zm0 6.5h18v3H3zM3 17h12v3H3z';

/**
 * Draws the trigger buttons into `bar` (emptied first). `icon`: the install's widget_icon URL, shown
 * instead of the built-in icon. `onOpen` runs on click; `onIntent` on hover or focus (to preload).
 */
export function drawTriggers(
  bar: HTMLElement,
  specs: TriggerSpec[],
  icon: string | null,
  onOpen: (mode: Mode, button: HTMLElement) => void,
  onIntent?: () => void,
): void {
  const doc = bar.ownerDocument;
  while (bar.firstChild) bar.removeChild(bar.firstChild);
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i] as TriggerSpec;
    const b = doc.createElement('button');
    b.type = 'button';
    b.className = 't';
    b.setAttribute('data-testid', `stn-trigger-${spec.mode}`);
    b.setAttribute('aria-haspopup', 'dialog');
    const svg = doc.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    const p = doc.createElementNS('http://www.w3.org/2000/svg', 'path');
    p.setAttribute('d', spec.mode === 'text' ? TEXT_ICON : spec.mode === 'lead' ? LEAD_ICON : CALL_ICON);
    svg.appendChild(p);
    if (icon) {
      // The install's icon; its file gone (or unreachable), the built-in one instead of a blank.
      const img = doc.createElement('img');
      img.onerror = () => img.parentNode && b.replaceChild(svg, img);
      img.src = icon;
      img.alt = '';
      b.appendChild(img);
    } else b.appendChild(svg);
    b.appendChild(doc.createTextNode(spec.label));
    b.addEventListener('click', () => onOpen(spec.mode, b));
    if (onIntent) {
      b.addEventListener('pointerenter', onIntent);
      b.addEventListener('focus', onIntent);
    }
    bar.appendChild(b);
  }
}
