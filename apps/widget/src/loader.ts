// widget.js: what the embed code loads on every page of a business's site, so it stays tiny and never
// blocks the page (docs/decisions/043-widget-build-and-loading.md). It finds its own script tag, fetches
// the install's public config when the browser is idle, draws the trigger buttons in plain DOM inside a
// shadow root, and loads the app (Preact) only on first open, on hover or focus of a trigger, or when
// the auto popup fires. Its only global is window.STNWidget.
import type { TWidgetConfig } from '@stn/contracts/widget';
import {
  defaultMode,
  drawTriggers,
  HOST_CSS,
  pick,
  TRIGGER_CSS,
  triggerSpecs,
  triggerVars,
} from './triggers.ts';
import type { AppHandle, AppModule, LeadModule, Mode, STNWidgetApi } from './types.ts';

/** The app chunk's and the lead form chunk's hashed file names, set by build.mjs. */
declare const __STN_APP__: string;
declare const __STN_LEAD__: string;

((w: Window & { STNWidget?: STNWidgetApi }) => {
  // Pasted twice (or with the preview tag too): the first one wins.
  if (w.STNWidget) return;
  const doc = document;
  let script = doc.currentScript as HTMLScriptElement | null;
  if (!script) {
    const all = doc.getElementsByTagName('script');
    for (let i = all.length - 1; i >= 0; i--) {
      const s = all[i];
      if (s && /\/widget\.js([?#]|$)/.test(s.src)) {
        script = s;
        break;
      }
    }
  }
  if (!script) return;
  const base = new URL(script.src, location.href).origin;
  const key = script.getAttribute('data-key') || '';

  const chunk = (name: string) => import(`${base}/widget/${name}`);
  let app: Promise<AppModule> | null = null;
  const loadApp = (): Promise<AppModule> => {
    if (!app) {
      app = chunk(__STN_APP__) as Promise<AppModule>;
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

  // Called once the bar is drawn (the config is in): the install's language, then the visitor's pick.
  const relabel = (lang: string) => {
    const c = config as TWidgetConfig;
    drawTriggers(
      bar as HTMLElement,
      triggerSpecs(c, lang),
      c.widget_icon ? new URL(c.widget_icon, base).href : null,
      openFrom,
      // Hover or focus of a trigger preloads the app (a failed load is tried again on the next open).
      loadApp,
    );
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
      .then((r) => r.json())
      // An answer without data (an unknown key) throws below and is caught: nothing is drawn.
      .then((body: { data: TWidgetConfig }) => {
        config = body.data;
        const host = doc.createElement('div');
        host.id = `stn-widget-${config.id}`;
        host.setAttribute('data-stn-widget', '');
        shadow = host.attachShadow({ mode: 'open' });
        try {
          // A constructed sheet (a page's CSP cannot refuse it); the app adds its own beside it.
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(HOST_CSS + TRIGGER_CSS);
          shadow.adoptedStyleSheets = [sheet];
        } catch {
          const style = doc.createElement('style');
          style.textContent = HOST_CSS + TRIGGER_CSS;
          shadow.appendChild(style);
        }
        bar = doc.createElement('div');
        bar.className = 'bar';
        bar.style.cssText = triggerVars(config.settings);
        shadow.appendChild(bar);
        relabel(pick(config.settings, 'language', 'en'));
        doc.body.appendChild(host);
        if (wanted !== null) show(wanted || undefined, true, null);
        forms();
        // The auto popup: once per visit (session), after its delay, without taking the visitor's focus.
        const popup = pick(config.settings, 'popup', {} as { auto?: boolean });
        const seen = `stn-popup-${config.id}`;
        if (popup.auto === true && !session(seen)) {
          setTimeout(
            () => {
              session(seen, '1');
              if (!handle) show(undefined, false, null);
            },
            pick(popup, 'delay', 10) * 1000,
          );
        }
      })
      .catch(() => undefined);
  };

  // Embedded forms: the page's placeholders, each filled in by the lead form chunk (Preact and the form,
  // not the panel's app) in a shadow root of its own; one already filled is left as it is.
  const forms = () => {
    const els = doc.querySelectorAll('[data-stn-form]');
    if (config && els.length)
      chunk(__STN_LEAD__).then(
        (m: LeadModule) => m.embed(els, { base, key, config: config as TWidgetConfig }),
        () => undefined,
      );
  };

  w.STNWidget = {
    forms,
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
