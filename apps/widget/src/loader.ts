// widget.js: what the embed code loads on every page of a business's site, so it stays tiny and never
// blocks the page (docs/decisions/043-widget-build-and-loading.md). It finds its own script tag, fetches
// the install's public config when the browser is idle, draws the trigger buttons in plain DOM inside a
// shadow root, and loads the app (Preact) only on first open, on hover or focus of a trigger, or when
// the auto popup fires. Its only global is window.STNWidget.
import type { TWidgetConfig } from '@stn/contracts/widget';
import {
  addCss,
  defaultMode,
  drawTriggers,
  HOST_CSS,
  pick,
  setVars,
  TRIGGER_CSS,
  triggerSpecs,
  triggerVars,
} from './triggers.ts';
import type { AppHandle, AppModule, Mode, STNWidgetApi } from './types.ts';

/** The app chunk's hashed file name, set by build.mjs. */
declare const __STN_APP__: string;

((w: Window & { STNWidget?: STNWidgetApi }) => {
  // Pasted twice (or with the preview tag too): the first one wins.
  if (w.STNWidget) return;
  const doc = document;
  let script = doc.currentScript as HTMLScriptElement | null;
  if (!script) {
    const all = doc.getElementsByTagName('script');
    for (let i = all.length - 1; i >= 0; i--) {
      const s = all[i];
      if (s && /\/widget\.js([?#].*)?$/.test(s.src)) {
        script = s;
        break;
      }
    }
  }
  if (!script) return;
  const base = new URL(script.src, location.href).origin;
  const key = script.getAttribute('data-key') || '';

  let app: Promise<AppModule> | null = null;
  const loadApp = (): Promise<AppModule> => {
    if (!app) {
      app = import(`${base}/widget/${__STN_APP__}`) as Promise<AppModule>;
      // A failed load (offline for a moment) is tried again on the next open.
      app.catch(() => {
        app = null;
      });
    }
    return app;
  };

  let config: TWidgetConfig | null = null;
  let shadow: ShadowRoot | null = null;
  let bar: HTMLElement | null = null;
  let handle: AppHandle | null = null;
  let wanted: Mode | '' | null = null;

  const relabel = (lang: string) => {
    if (config && bar) drawTriggers(bar, triggerSpecs(config, lang), icon(config), openFrom, preload);
  };
  const icon = (c: TWidgetConfig) => (c.widget_icon ? new URL(c.widget_icon, base).href : null);
  const preload = () => {
    loadApp().catch(() => undefined);
  };

  const show = (mode: Mode | undefined, modal: boolean, trigger: HTMLElement | null) => {
    if (!config || !shadow) {
      // Asked before the config arrived (STNWidget.open() early in the page): opened once it has.
      wanted = mode ?? '';
      return;
    }
    const c = config;
    const root = shadow;
    loadApp().then(
      // The app's evaluation and its first render in separate tasks: neither holds the page long.
      (m) =>
        setTimeout(() => {
          if (!handle) handle = m.mount({ root, config: c, base, key, onLanguage: relabel });
          handle.open(mode ?? defaultMode(c), modal, trigger);
        }, 0),
      () => undefined,
    );
  };
  const openFrom = (mode: Mode, button: HTMLElement) => show(mode, true, button);

  const start = () => {
    fetch(`${base}/api/widget/v1/config`, { headers: { 'X-Install-Key': key }, credentials: 'omit' })
      .then((r) => (r.ok ? r.json() : null))
      .then((body: { data?: TWidgetConfig } | null) => {
        if (!body?.data) return;
        config = body.data;
        const host = doc.createElement('div');
        host.id = `stn-widget-${config.id}`;
        host.setAttribute('data-stn-widget', '');
        shadow = host.attachShadow({ mode: 'open' });
        addCss(shadow, HOST_CSS + TRIGGER_CSS);
        bar = doc.createElement('div');
        bar.className = 'bar';
        bar.style.setProperty(
          pick(config.settings, 'position', '') === 'bottom-left' ? 'left' : 'right',
          'var(--x)',
        );
        setVars(bar, triggerVars(config.settings));
        shadow.appendChild(bar);
        relabel(pick(config.settings, 'language', 'en'));
        doc.body.appendChild(host);
        if (wanted !== null) show(wanted || undefined, true, null);
        // The auto popup: once per visit (session), after its delay, without taking the visitor's focus.
        const popup = pick(config.settings, 'popup', {} as { auto?: boolean; delay?: number });
        const seen = `stn-popup-${config.id}`;
        if (popup.auto === true && !session(seen)) {
          const delay = typeof popup.delay === 'number' ? popup.delay : 10;
          setTimeout(() => {
            session(seen, '1');
            if (!handle) show(undefined, false, null);
          }, delay * 1000);
        }
      })
      .catch(() => undefined);
  };

  w.STNWidget = {
    open: (mode) => show(mode, true, null),
    close: () => handle?.close(),
    preview: (el, c) => loadApp().then((m) => m.preview(el, c)),
  };

  if (!key) return; // data-preview: the API only.
  const idle = (w as { requestIdleCallback?: (f: () => void, o: { timeout: number }) => void })
    .requestIdleCallback;
  const go = () => (idle ? idle(start, { timeout: 3000 }) : setTimeout(start, 1));
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', go);
  else go();
})(window);

/** sessionStorage, which a page's privacy settings may forbid: then nothing is remembered. */
function session(k: string, v?: string): string | null {
  try {
    if (v !== undefined) sessionStorage.setItem(k, v);
    return sessionStorage.getItem(k);
  } catch {
    return null;
  }
}
