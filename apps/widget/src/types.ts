// What the loader (widget.js) and the app chunk (widget/app-<hash>.js) say to each other. Types only: the
// loader imports nothing of the app, it loads it with import() on first open.
import type { TWidgetConfig } from '@stn/contracts/widget';

/** What the panel shows: an instant callback, a scheduled call, text us, or the install's lead form. */
export type Mode = 'call' | 'schedule' | 'text' | 'lead';

export type MountOptions = {
  /** The host element's shadow root: the app adds its own container and styles to it. */
  root: ShadowRoot;
  config: TWidgetConfig;
  /** Origin of the platform (the loader script's), for the API and the chunks. */
  base: string;
  key: string;
  /** The visitor picked another language in the panel: the loader relabels the trigger buttons. */
  onLanguage: (lang: string) => void;
};

export type AppHandle = {
  /** Opens the panel in a mode. `modal`: focus moves in and is trapped (false for the auto popup). */
  open: (mode: Mode, modal: boolean, trigger: HTMLElement | null) => void;
  close: () => void;
};

/** The app chunk's exports. */
export type AppModule = {
  mount: (opts: MountOptions) => AppHandle;
  preview: (el: Element, config: TWidgetConfig) => void;
};

/** window.STNWidget, the widget's only global. */
export type STNWidgetApi = {
  open: (mode?: Mode) => void;
  close: () => void;
  preview: (el: Element, config: TWidgetConfig) => Promise<void>;
  /**
   * Fills the page's embedded form placeholders (`[data-stn-form]`) not filled yet: a single-page site
   * calls it after drawing a page that has one (the loader fills those of the first page by itself).
   */
  forms: () => void;
};

/** The lead form chunk's exports the loader uses: embedded forms, each placeholder filled in. */
export type LeadModule = {
  embed: (els: ArrayLike<Element>, opts: { base: string; key: string; config: TWidgetConfig }) => void;
};
