// The agency's payment popup on its own websites (issue 23; spec 001 popup-script, spec 000 §2 /popup):
//   GET /popup.js   the loader the snippet of POST /v1/agencies/popup-script names. Asked for on the
//                   agency's white-label site, it knows the agency by the Host; while the popup's offer is
//                   on it shows, after a short delay, a floating button that opens a modal with an iframe of
//                   that site's /popup page (the sale happens on the agency's own origin). Close button,
//                   a click outside and Escape (on the page, or in the frame, which posts
//                   'stn-popup-close') close it. Off, or no such site: a script that does nothing.
// Small vanilla JS with no build step; served to any site (CORS `*`, a cross-origin resource policy).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import { AppError } from '../../platform/http/errors.ts';
import { linkHolderContext } from '../../platform/tenancy/context.ts';
import { agencySiteAddress } from '../agencies/service.ts';
import { popupOffer } from './service.ts';

/** How long after the page loads the popup's button shows. */
export const POPUP_DELAY_MS = 1500;

export type PopupLoaderConfig = { agency: number; origin: string; label: string; delay: number };

/** JSON safe inside a script: no `</script>` or line separators can end it early. */
const inlineJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export function popupLoader(cfg: PopupLoaderConfig): string {
  return `/* Start Texting Now popup */
(function () {
  var cfg = ${inlineJson(cfg)};
  var me = document.currentScript;
  var named = me && me.getAttribute('data-agency');
  if (named && named !== String(cfg.agency)) return;
  if (window.__stnPopup) return;
  window.__stnPopup = true;
  var overlay = null;
  function el(tag, css) { var e = document.createElement(tag); e.style.cssText = css; return e; }
  function hide() { if (overlay) { overlay.remove(); overlay = null; } }
  function open() {
    if (overlay) return;
    overlay = el('div', 'all:initial;position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center;');
    overlay.setAttribute('data-stn-popup', 'overlay');
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-modal', 'true');
    var box = el('div', 'all:initial;position:relative;display:block;width:min(560px,94vw);height:min(780px,90vh);background:#fff;border-radius:12px;overflow:hidden;box-shadow:0 10px 40px rgba(0,0,0,.35);');
    var frame = el('iframe', 'all:initial;display:block;border:0;width:100%;height:100%;');
    frame.src = cfg.origin + '/popup';
    frame.title = cfg.label;
    frame.setAttribute('data-stn-popup', 'frame');
    var close = el('button', 'all:initial;position:absolute;top:6px;right:10px;z-index:1;cursor:pointer;font:28px/1 sans-serif;color:#333;background:transparent;border:0;padding:4px;');
    close.type = 'button';
    close.textContent = '\\u00d7';
    close.setAttribute('aria-label', 'Close');
    close.setAttribute('data-stn-popup', 'close');
    close.onclick = hide;
    overlay.onclick = function (e) { if (e.target === overlay) hide(); };
    box.appendChild(frame);
    box.appendChild(close);
    overlay.appendChild(box);
    document.body.appendChild(overlay);
  }
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape') hide(); });
  // Escape pressed inside the frame: the popup page asks to be closed.
  window.addEventListener('message', function (e) {
    if (e.origin === cfg.origin && e.data && e.data.type === 'stn-popup-close') hide();
  });
  function show() {
    var button = el('button', 'all:initial;position:fixed;bottom:20px;left:20px;z-index:2147483646;cursor:pointer;font:600 16px/1.2 sans-serif;color:#fff;background:#1a76d2;border:0;border-radius:24px;padding:12px 20px;box-shadow:0 4px 16px rgba(0,0,0,.25);');
    button.type = 'button';
    button.textContent = cfg.label;
    button.setAttribute('data-stn-popup', 'button');
    button.onclick = open;
    document.body.appendChild(button);
  }
  function start() { setTimeout(show, cfg.delay); }
  if (document.body) start(); else document.addEventListener('DOMContentLoaded', start);
})();
`;
}

export async function popupAssetsRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  app.get('/popup.js', { schema: { hide: true } }, async (request, reply) => {
    reply
      .header('content-type', 'application/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin');
    const ctx = linkHolderContext(deps, 'orders.popup_js', clientOf(request));
    // A host no active agency owns: the script does nothing (any other error is an error).
    const offer = await popupOffer(ctx, { host: request.host ?? request.hostname }).catch((err) => {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
      throw err;
    });
    if (!offer?.enabled) return reply.send('/* Start Texting Now popup: no offer on this site */\n');
    const origin = await agencySiteAddress(ctx, { id: offer.agencyId });
    return reply.send(
      popupLoader({
        agency: offer.agencyId,
        origin,
        label: offer.button_text || offer.title || offer.plan?.name || 'Get started',
        delay: POPUP_DELAY_MS,
      }),
    );
  });
}
