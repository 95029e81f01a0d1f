// The widget demo page (issue 11, ADR 039): GET /widget-demo shows an install's widget, as its embed code
// puts it, on an ordinary-looking small-business page whose CSS and script are hostile on purpose: the
// resets, `!important` rules, inherited fonts, generic CSS variables, overlays at the highest z-index and
// patched built-ins that real websites carry. The widget must look and work the same as on a plain page
// (`?plain=1`, the same page without the hostility), which the browser tests compare (e2e/widget*.spec.ts).
//
// `?install=<key>` shows any active install's widget (the key is public: it is in the embed code); without
// it, the demo data's install. No such install: 404.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { tenantContext } from '../../platform/tenancy/context.ts';
import { agencySiteAddress } from '../agencies/service.ts';
import { demoPageInstall } from '../installs/service.ts';
import { demoEmbeddedFormId } from '../leadforms/service.ts';

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * A theme's CSS at its worst. Everything here is something live websites do; the widget's Shadow DOM and
 * its `:host` rules must keep all of it out.
 */
export const HOSTILE_CSS = `
/* An old theme's reset: strip every element, then put the look back with !important. */
div, span, p, a, button, input, textarea, select, label, form, ul, li, img, svg, h1, h2, h3, section,
header, footer, nav, aside { all: unset !important; }
*, *::before, *::after { box-sizing: content-box !important; }
/* Root and body fonts inherited by everything that does not reset them; rem shrinks to 10px. */
html { font-size: 10px !important; }
body { font: italic 19px/2.4 "Comic Sans MS", Georgia, cursive !important; color: #5b0047 !important;
  letter-spacing: 0.12em !important; word-spacing: 4px !important; text-transform: uppercase;
  text-align: justify !important; text-shadow: 1px 1px 0 #f0c !important; cursor: crosshair !important;
  margin: 0 !important; background: #fff7fb !important; }
/* Generic design tokens defined everywhere: a widget that reads variables with these names inherits them. */
* { --primary: #ff00aa; --primary-color: #ff00aa; --color-primary: #ff00aa; --accent: #00ff00;
  --bg: #000000; --background: #000000; --text: #ffff00; --text-color: #ffff00; --radius: 0;
  --border-radius: 0; --font: "Courier New"; --font-size: 31px; --spacing: 40px; --shadow: none; }
/* Every control of the site, loudly. */
button, input, textarea, select { display: inline-block !important; font: bold 26px/1 "Courier New", monospace !important;
  color: #d00 !important; background: #ff0 !important; border: 4px dashed #d00 !important;
  padding: 14px 30px !important; margin: 8px !important; min-height: 70px !important; min-width: 240px !important;
  border-radius: 0 !important; text-transform: uppercase !important; box-shadow: 8px 8px 0 #000 !important;
  transform: rotate(-2deg) !important; }
div { display: block !important; position: relative !important; z-index: 1 !important; float: none !important; }
span { color: #0a0 !important; font-weight: 900 !important; }
svg { width: 180px !important; height: 180px !important; fill: #f0f !important; }
img { max-width: none !important; filter: grayscale(1) !important; }
*:focus { outline: none !important; }
* { transition: all 1.5s ease !important; }
/* The theme hides the chat widget it no longer uses. */
div[id*="widget"], [class*="widget"], [aria-modal="true"], [role="dialog"] { display: none !important;
  visibility: hidden !important; opacity: 0 !important; }
/* Whatever is last in the body is the footer's newsletter box. */
body > div:last-child { position: static !important; width: 300px !important; height: 40px !important;
  overflow: hidden !important; transform: scale(0.5) !important; }
`;

/** The page's own look (classes beat the reset's element rules; everything !important as the theme must). */
const PAGE_CSS = `
.wrap { display: block !important; max-width: 980px !important; margin: 0 auto !important; padding: 0 24px 140px !important; }
.top { display: flex !important; position: sticky !important; top: 0 !important; z-index: 999999 !important;
  justify-content: space-between !important; align-items: center !important; padding: 10px 24px !important;
  background: #12355b !important; color: #fff !important; }
.top a { color: #fff !important; margin-left: 18px !important; cursor: pointer !important; }
.brand { font-weight: 700 !important; font-size: 24px !important; color: #fff !important; }
.hero { display: block !important; padding: 48px 0 24px !important; }
.hero h1 { display: block !important; font-size: 44px !important; line-height: 1.1 !important; margin: 0 0 12px !important; }
.cta { display: inline-block !important; margin-top: 16px !important; }
.grid { display: grid !important; grid-template-columns: repeat(3, 1fr) !important; gap: 18px !important; margin: 24px 0 !important; }
.card { display: block !important; padding: 16px !important; border: 2px solid #12355b !important; border-radius: 12px !important; }
.card h2 { display: block !important; font-size: 22px !important; margin-bottom: 6px !important; }
.note { display: block !important; margin: 24px 0 !important; padding: 16px 20px !important; background: #fff3cd !important;
  border-left: 6px solid #c77700 !important; color: #3d2a00 !important; text-transform: none !important; font-style: normal !important; }
.note li { display: list-item !important; list-style: disc !important; margin-left: 24px !important; }
.note code { font-family: monospace !important; }
.search { display: block !important; margin: 18px 0 !important; }
.cookies { display: flex !important; position: fixed !important; left: 0 !important; right: 0 !important; bottom: 0 !important;
  z-index: 2147483646 !important; height: 96px !important; align-items: center !important; gap: 24px !important;
  padding: 0 32px !important; background: rgba(20, 20, 20, 0.92) !important; color: #fff !important; }
.to-top { display: block !important; position: fixed !important; right: 20px !important; bottom: 20px !important;
  z-index: 2147483647 !important; width: 64px !important; height: 64px !important; border-radius: 50% !important;
  background: #c00 !important; color: #fff !important; text-align: center !important; line-height: 64px !important; }
`;

/**
 * The site's scripts at their worst: old-library "polyfills" assigned over the native array methods
 * (enumerable, loose in the corners), Object.prototype and Array.prototype additions that show up in
 * for..in, a Function.prototype.bind replacement, wrappers around JSON, fetch, XMLHttpRequest, timers,
 * animation frames and addEventListener (as monitoring scripts do), an AMD `define`, globals with
 * common names, and a "/" shortcut that takes focus to the site's search from anywhere the page thinks is
 * not a field. Everything still works for code that does ordinary things; `window.__hostile` counts what
 * went through the wrappers (the tests read it to know the hostility was live).
 */
export const HOSTILE_SCRIPT = `
(function () {
  var seen = (window.__hostile = { map: 0, forEach: 0, includes: 0, find: 0, json: 0, fetch: 0, xhr: 0, timers: 0, frames: 0, listeners: 0, slash: 0 });
  var AP = Array.prototype;
  AP.map = function (fn, self) { seen.map++; var out = []; for (var i = 0; i < this.length; i++) out.push(fn.call(self, this[i], i, this)); return out; };
  AP.forEach = function (fn, self) { seen.forEach++; for (var i = 0; i < this.length; i++) fn.call(self, this[i], i, this); };
  AP.includes = function (x) { seen.includes++; for (var i = 0; i < this.length; i++) if (this[i] === x) return true; return false; };
  AP.find = function (fn, self) { seen.find++; for (var i = 0; i < this.length; i++) if (fn.call(self, this[i], i, this)) return this[i]; return undefined; };
  AP.filter = function (fn, self) { var out = []; for (var i = 0; i < this.length; i++) if (fn.call(self, this[i], i, this)) out.push(this[i]); return out; };
  AP.last = function () { return this[this.length - 1]; };
  AP.remove = function (x) { var i = this.indexOf(x); if (i >= 0) this.splice(i, 1); return this; };
  Object.prototype.extend = function (src) { for (var k in src) this[k] = src[k]; return this; };
  Object.prototype.toQueryString = function () { return ''; };
  String.prototype.capitalize = function () { return this.charAt(0).toUpperCase() + this.slice(1); };
  var slice = AP.slice;
  Function.prototype.bind = function (self) {
    var fn = this, pre = slice.call(arguments, 1);
    return function () { return fn.apply(self, pre.concat(slice.call(arguments))); };
  };
  var stringify = JSON.stringify, parse = JSON.parse;
  JSON.stringify = function (v, r, s) { seen.json++; return stringify.call(JSON, v, r, s); };
  JSON.parse = function (t, r) { return parse.call(JSON, t, r); };
  var realFetch = window.fetch;
  window.fetch = function (input, init) { seen.fetch++; return realFetch.call(window, input, init); };
  var open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function () { seen.xhr++; return open.apply(this, arguments); };
  var st = window.setTimeout, si = window.setInterval, raf = window.requestAnimationFrame;
  function guard(fn) { return typeof fn !== 'function' ? fn : function () { seen.timers++; try { return fn.apply(this, arguments); } catch (e) { console.error('[site monitor]', e); } }; }
  window.setTimeout = function (fn, ms) { var a = slice.call(arguments); a[0] = guard(fn); return st.apply(window, a); };
  window.setInterval = function (fn, ms) { var a = slice.call(arguments); a[0] = guard(fn); return si.apply(window, a); };
  window.requestAnimationFrame = function (fn) { seen.frames++; return raf.call(window, fn); };
  var ET = EventTarget.prototype, add = ET.addEventListener, remove = ET.removeEventListener;
  var wrapped = new WeakMap();
  ET.addEventListener = function (type, fn, opts) {
    seen.listeners++;
    if (typeof fn !== 'function') return add.call(this, type, fn, opts);
    var w = wrapped.get(fn);
    if (!w) { w = function (e) { return fn.call(this, e); }; wrapped.set(fn, w); }
    return add.call(this, type, w, opts);
  };
  ET.removeEventListener = function (type, fn, opts) { return remove.call(this, type, (fn && wrapped.get(fn)) || fn, opts); };
  window.define = function () {}; window.define.amd = { jQuery: true };
  window.h = 'site'; window.preact = { version: 'site' }; window.React = { version: 'site' }; window.process = { env: { NODE_ENV: 'site' } };
  document.addEventListener('keydown', function (e) {
    var t = e.target, tag = t && t.tagName;
    if (e.key === '/' && tag !== 'INPUT' && tag !== 'TEXTAREA' && tag !== 'SELECT' && !(t && t.isContentEditable)) {
      seen.slash++; e.preventDefault(); var s = document.getElementById('site-search'); if (s) s.focus();
    }
  });
})();
`;

function page(opts: {
  install: { key: string; name: string; website: string };
  /** The install's embedded form shown inline in "Visit us" (issue 21), if it has one that takes answers. */
  formId: number | null;
  plain: boolean;
  nonce: string;
}): string {
  const { install, formId, plain, nonce } = opts;
  const name = esc(install.name);
  const other = plain ? '' : '&amp;plain=1';
  const self = `/widget-demo?install=${encodeURIComponent(install.key)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} · widget demo${plain ? ' (plain page)' : ''}</title>
${plain ? '' : `<style nonce="${nonce}">${HOSTILE_CSS}</style>`}
<style nonce="${nonce}">${PAGE_CSS}</style>
${plain ? '' : `<script nonce="${nonce}">${HOSTILE_SCRIPT}</script>`}
</head>
<body data-demo="${plain ? 'plain' : 'hostile'}">
<div class="top"><span class="brand">${name}</span><nav><a href="#services">Services</a><a href="#visit">Visit us</a><a href="${self}${other}" data-testid="demo-switch">${plain ? 'Hostile page' : 'Plain page'}</a></nav></div>
<div class="wrap">
<div class="hero">
<h1>Healthy smiles, without the wait.</h1>
<p>Family dentistry, cleanings and emergency visits. Ask for a call back and we ring you within seconds, book a call for later, or text us: the widget in the corner does all three.</p>
<button type="button" class="cta" id="book">Book a visit</button>
<div class="search"><label for="site-search">Search the site</label> <input id="site-search" type="search" placeholder="Press / to search"></div>
</div>
<div class="note" data-testid="demo-note"><strong>${plain ? 'The plain page.' : 'This page is hostile on purpose.'}</strong>
${
  plain
    ? `<p>The same page without the hostile CSS and script, to compare the widget with.</p>`
    : `<ul>
<li>CSS: a reset of every element with <code>all: unset !important</code>, <code>!important</code> rules on div, span, button and input, a 10px root font and an italic uppercase body font, generic variables (<code>--primary</code>, <code>--bg</code>…) on every element, a rule hiding anything with “widget” in its id, a sticky header, a cookie bar and a back-to-top button at the highest z-index.</li>
<li>Script: hand-written <code>Array.prototype.map</code>, <code>forEach</code>, <code>includes</code>, <code>find</code>; enumerable additions to <code>Object.prototype</code> and <code>Array.prototype</code>; a replaced <code>Function.prototype.bind</code>; wrapped <code>JSON.stringify</code>, <code>fetch</code>, <code>setTimeout</code> and <code>addEventListener</code>; an AMD <code>define</code>; a “/” shortcut to the site search.</li>
</ul>`
}
<p>Widget of the install “${name}” (${esc(install.website)}), pasted with its embed code at the end of the body.</p></div>
<div class="grid" id="services">
<div class="card"><h2>Cleanings</h2><p>Gentle, thorough and quick: in and out in forty minutes.</p></div>
<div class="card"><h2>Emergencies</h2><p>Toothache at night? Ask for a call back and we ring you now.</p></div>
<div class="card"><h2>Whitening</h2><p>One visit, a brighter smile, no sensitivity.</p></div>
</div>
<div id="visit"><h2>Visit us</h2><p>12 Main Street. Monday to Friday, 8 to 5. Parking behind the building.</p></div>
${formId === null ? '' : `<div id="enquiry"><h2>New patient enquiry</h2><p>Tell us about you and we will get back to you (an embedded form of the install, pasted as its embed code's placeholder).</p><div data-stn-form="${formId}" data-testid="demo-embedded-form"></div></div>`}
</div>
<div class="cookies" role="region" aria-label="Cookies"><span>We use cookies to improve your experience.</span><button type="button" id="cookies-ok">Accept</button></div>
<a class="to-top" href="#" aria-label="Back to top">↑</a>
<script src="/widget.js" data-key="${esc(install.key)}" async></script>
</body>
</html>
`;
}

/**
 * The demo page's policy: its own inline style and script by nonce, the widget from this origin, and the
 * install's images from the agency's own host, where the widget's config names them (ADR 048).
 */
function policy(nonce: string, agencyOrigin: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' ${agencyOrigin} data: https:`,
    "connect-src 'self'",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

const NOT_FOUND_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No widget to show</title></head>
<body><h1>No widget to show</h1><p>There is no active install with this key. Open the demo from an install that is switched on.</p></body></html>`;

export async function widgetDemoRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  app.get('/widget-demo', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as { install?: unknown; plain?: unknown };
    const key = typeof query.install === 'string' && query.install ? query.install : null;
    const plain = query.plain === '1' || query.plain === 'true';
    const install =
      key !== null && (key.length > 200 || key.includes('\u0000')) ? null : await demoPageInstall(deps, key);
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex');
    if (!install) {
      reply.header('content-security-policy', "default-src 'none'");
      return reply.status(404).type('text/html; charset=utf-8').send(NOT_FOUND_HTML);
    }
    const nonce = crypto.randomBytes(16).toString('base64');
    const agencyOrigin = await agencySiteAddress({ db: deps.db, deps }, { id: install.agencyId });
    reply.header('content-security-policy', policy(nonce, agencyOrigin));
    // The page is the install's visitor's, as the widget's own calls are.
    const visitor = tenantContext(
      deps,
      { level: 'business', agencyId: install.agencyId, businessId: install.businessId },
      { kind: 'visitor', installId: install.id },
    );
    const formId = await demoEmbeddedFormId(visitor, { installId: install.id });
    return reply.type('text/html; charset=utf-8').send(page({ install, formId, plain, nonce }));
  });
}
