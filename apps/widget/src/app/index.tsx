// The app chunk (widget/app-<hash>.js), loaded by widget.js on first open: mounts the opened widget in
// the host's shadow root, or renders it inline for STNWidget.preview.
import type { TWidgetConfig } from '@stn/contracts/widget';
import { render } from 'preact';
import { addCss, defaultMode, drawTriggers, TRIGGER_CSS, triggerSpecs, triggerVars } from '../triggers.ts';
import type { AppHandle, Mode, MountOptions } from '../types.ts';
import { createApi } from './api.ts';
import { readSettings } from './logic.ts';
import { presence } from './presence.ts';
import { PANEL_CSS } from './styles.ts';
import { tagged, tagger } from './tags.ts';
import { Widget } from './widget.tsx';

/**
 * Keys typed in the widget stay in the widget: a page's shortcuts ("/" to its search, "?" for help) would
 * otherwise see them on the host element and take the visitor's focus away mid-sentence.
 */
function keepKeys(root: ShadowRoot): void {
  const stop = (e: Event) => e.stopPropagation();
  root.addEventListener('keydown', stop);
  root.addEventListener('keyup', stop);
  root.addEventListener('keypress', stop);
}

export function mount(opts: MountOptions): AppHandle {
  const { root } = opts;
  // Image paths are the platform's (/uploads/...): made absolute, as the page's base would be used.
  const abs = (u: string | null) => (u ? new URL(u, opts.base).href : null);
  const config = { ...opts.config, logo: abs(opts.config.logo), widget_icon: abs(opts.config.widget_icon) };
  const doc = root.ownerDocument;
  addCss(root, PANEL_CSS);
  keepKeys(root);
  const el = doc.createElement('div');
  root.appendChild(el);
  let lang = readSettings(config.settings).language as string;
  const tag = tagger(config, doc.defaultView ?? window);
  const api = tagged(
    createApi(opts.base, opts.key, () => lang),
    tag,
  );
  let state = { open: false, mode: defaultMode(config), modal: true };
  let back: HTMLElement | null = null;
  const live = presence(opts.base, opts.key);

  const draw = () => {
    live(state.open);
    render(
      <Widget
        config={config}
        api={api}
        open={state.open}
        mode={state.mode}
        modal={state.modal}
        inline={false}
        onMode={(mode) => {
          state = { ...state, mode };
          draw();
        }}
        onClose={close}
        onLanguage={(l) => {
          lang = l;
          opts.onLanguage(l);
        }}
      />,
      el,
    );
  };
  function close() {
    if (!state.open) return;
    state = { ...state, open: false };
    draw();
    // Focus goes back to where the visitor was: the trigger, or what had it before.
    back?.focus();
    back = null;
  }
  draw();
  return {
    open: (mode, modal, trigger) => {
      if (state.open && state.mode === mode && modal && trigger) return close();
      const active = doc.activeElement as HTMLElement | null;
      if (modal) back = trigger ?? (active && active !== doc.body ? active : null);
      if (!state.open) tag('widget_open');
      state = { open: true, mode, modal: modal || (state.open && state.modal) };
      draw();
    },
    close,
  };
}

const previews = new WeakMap<Element, { panel: HTMLElement; bar: HTMLElement; mode: Mode; open: boolean }>();

/** Renders the opened widget inline in `el` (its own shadow root); called again with a new config, updates. */
export function preview(el: Element, config: TWidgetConfig): void {
  let p = previews.get(el);
  if (!p) {
    const fresh = !el.shadowRoot;
    const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    if (fresh) keepKeys(root);
    addCss(
      root,
      `:host{all:initial;display:block}*{box-sizing:border-box}${TRIGGER_CSS}.bar.inline{position:static;margin:12px 0 0 auto;width:max-content;max-width:100%}.bar.inline.left{margin-left:0}${PANEL_CSS}`,
    );
    const panel = el.ownerDocument.createElement('div');
    const bar = el.ownerDocument.createElement('div');
    bar.className = 'bar inline';
    root.appendChild(panel);
    root.appendChild(bar);
    p = { panel, bar, mode: defaultMode(config), open: true };
    previews.set(el, p);
  }
  const state = p;
  const settings = readSettings(config.settings);
  // A new config may drop the mode shown (another widget_type): back to its first one.
  const modes = triggerSpecs(config, settings.language);
  let known = false;
  for (let i = 0; i < modes.length; i++) if (modes[i]?.mode === state.mode) known = true;
  if (!known && !(state.mode === 'schedule' && modes[0]?.mode === 'call')) state.mode = defaultMode(config);
  const draw = () => {
    render(
      <Widget
        config={config}
        api={null}
        open={state.open}
        mode={state.mode}
        modal={false}
        inline
        onMode={(mode) => {
          state.mode = mode;
          draw();
        }}
        onClose={() => {
          // Closed, the preview shows the trigger buttons alone, as a visitor sees them.
          state.open = false;
          draw();
        }}
        onLanguage={(l) => drawBar(l)}
      />,
      state.panel,
    );
  };
  const drawBar = (lang: string) => {
    state.bar.style.cssText = triggerVars(config.settings);
    state.bar.className = settings.left ? 'bar inline left' : 'bar inline';
    const icon = config.widget_icon;
    drawTriggers(state.bar, triggerSpecs(config, lang), icon, (mode) => {
      state.mode = mode;
      state.open = true;
      draw();
    });
  };
  drawBar(settings.language);
  draw();
}
