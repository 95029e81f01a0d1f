// What the loader, the app and the lead form chunk share beyond Preact: a setting read defensively, the
// colours made readable, CSS added to a shadow root. Its own module, so that the chunk the app and the lead
// form share (widget/chunk-<hash>.js) holds only this of the widget's own code, not the trigger buttons.

// biome-ignore lint/suspicious/noExplicitAny: settings are free-form JSON here, read defensively.
type Loose = any;

/** A setting read defensively: `fallback` unless the value has the fallback's type. */
export function pick<T>(obj: Loose, key: string, fallback: T): Widen<T> {
  const v = obj && typeof obj === 'object' ? obj[key] : undefined;
  return (typeof v === typeof fallback && v !== null ? v : fallback) as Widen<T>;
}
type Widen<T> = T extends string ? string : T extends number ? number : T extends boolean ? boolean : T;

const HEX = /^#[0-9a-f]{6}$/i;
/** A #rrggbb colour's red (0), green (1) or blue (2), 0 to 255. */
const channel = (hex: string, i: number) => Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
const lum = (hex: string) => {
  let sum = 0;
  for (let i = 0; i < 3; i++) {
    const c = channel(hex, i) / 255;
    sum +=
      ([0.2126, 0.7152, 0.0722][i] as number) * (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  }
  return sum;
};
/** The WCAG contrast ratio of two #rrggbb colours. */
export const contrast = (a: string, b: string): number => {
  const x = lum(a);
  const y = lum(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
};

/**
 * A background the text colour is readable on (WCAG AA, 4.5:1): the install's own when it is, else the
 * same hue darkened (light text) or lightened (dark text) step by step until it is.
 */
export function readable(bg: string, fg: string): string {
  if (!HEX.test(bg) || !HEX.test(fg)) return bg;
  const to = lum(fg) > lum(bg) ? 0 : 255;
  let c = bg;
  for (let k = 0; k < 30 && contrast(c, fg) < 4.5; k++) {
    let next = '#';
    for (let i = 0; i < 3; i++) {
      const ch = channel(c, i);
      next += `0${Math.round(ch + (to - ch) * 0.08).toString(16)}`.slice(-2);
    }
    c = next;
  }
  return c;
}

/** Adds CSS to a shadow root: a constructed sheet where supported (a page's CSP cannot refuse it). */
export function addCss(root: ShadowRoot, css: string): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    const list = root.adoptedStyleSheets;
    const next: CSSStyleSheet[] = [];
    for (let i = 0; i < list.length; i++) next[i] = list[i] as CSSStyleSheet;
    next[next.length] = sheet;
    root.adoptedStyleSheets = next;
    return;
  } catch {
    const style = root.ownerDocument.createElement('style');
    style.textContent = css;
    root.appendChild(style);
  }
}

/** A chunk loaded on first need, once; a failed load (offline for a moment) is tried again next time. */
export function lazyOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => {
    if (!p) {
      p = load();
      p.catch(() => {
        p = null;
      });
    }
    return p;
  };
}
