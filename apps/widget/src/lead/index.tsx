// The lead form chunk (widget/lead-<hash>.js, issue 21). Two callers:
// - the loader (widget.js), for embedded forms: `embed` fills each `[data-stn-form="<id>"]` placeholder of
//   the page with its form, inline, in a shadow root of its own. It loads this chunk and Preact only (the
//   chunk it shares with the app), never the panel's app.
// - the app (the panel's mode 'lead'), which renders `LeadForm` in its own tree with `LEAD_CSS` added.
import { leadLanguage } from '@stn/contracts/lead-form-public';
import type { TWidgetEmbeddedForm } from '@stn/contracts/leadforms';
import type { TWidgetConfig } from '@stn/contracts/widget';
import { render } from 'preact';
import { createApi } from '../app/api.ts';
import { addCss, pick } from '../shared.ts';
import { LeadForm } from './form.tsx';
import { LEAD_CSS } from './styles.ts';

export { LeadForm } from './form.tsx';
export { LEAD_CSS } from './styles.ts';

// biome-ignore lint/suspicious/noExplicitAny: settings are free-form JSON here, read defensively.
type Loose = any;

/** Placeholders taken (their form asked for). */
const claimed = new WeakSet<Element>();

/** The browser's language, when the embedded form's is 'auto'. */
const browserLanguage = (): string => {
  try {
    return navigator.language || 'en';
  } catch {
    return 'en';
  }
};

/**
 * Fills each placeholder with its embedded form (GET /api/widget/v1/forms/{id}): the form in the embed's
 * language (the browser's when 'auto'), its title when `show_title`, the install's button colours when
 * `use_install_style`; its submissions name the embed. A placeholder already filled, without a valid id,
 * or whose form is gone or inactive is left as the page has it.
 */
export function embed(
  els: ArrayLike<Element>,
  opts: { base: string; key: string; config: TWidgetConfig },
): void {
  const colors = pick(opts.config.settings, 'colors', {} as Loose);
  for (let i = 0; i < els.length; i++) {
    const el = els[i] as Element;
    const id = Number(el.getAttribute('data-stn-form'));
    if (!Number.isInteger(id) || id <= 0 || el.shadowRoot || claimed.has(el)) continue;
    claimed.add(el);
    let lang = browserLanguage();
    const api = createApi(opts.base, opts.key, () => lang);
    api.get<TWidgetEmbeddedForm>(`/v1/forms/${id}`).then((r) => {
      // What the page put in the placeholder (a link, a "loading" line) stays until the form is in.
      if (!r.ok || el.shadowRoot) return;
      const { settings, form } = r.data;
      const formLang = leadLanguage(
        form,
        settings.language === 'auto' ? browserLanguage() : settings.language,
      );
      lang = formLang;
      const root = el.attachShadow({ mode: 'open' });
      // The host is the page's box (its margins and width are the page's to set); inside, nothing is
      // inherited from the page: the wrapper starts from initial values.
      addCss(root, `:host{display:block}.w{all:initial;display:block}${LEAD_CSS}`);
      // Keys typed in the form stay in it: a page's shortcuts ("/" to its search) would take the focus.
      const stop = (e: Event) => e.stopPropagation();
      root.addEventListener('keydown', stop);
      root.addEventListener('keyup', stop);
      root.addEventListener('keypress', stop);
      const box = el.ownerDocument.createElement('div');
      box.className = 'w';
      root.appendChild(box);
      render(
        <LeadForm
          form={form}
          lang={formLang}
          send={(body) => api.post('/v1/lead', body)}
          embedId={id}
          showTitle={settings.show_title !== false}
          level={2}
          idp={`stn-f${id}`}
          autoFocus={false}
          button={
            settings.use_install_style
              ? { background: pick(colors, 'primary', ''), color: pick(colors, 'text', '#FFFFFF') }
              : undefined
          }
        />,
        box,
      );
    });
  }
}
