// The light landing page (landing.html, ADR 080): no React, no Mantine, no i18next. The page in the HTML
// shows before this runs; this translates it, puts in the agency's texts and branding (the site data the
// server embeds in #site-data), the signed-in header, the slider, the opt-in and page modals, and installs
// the agency's custom script with the document's nonce (ADR 079). Leaving the page ends the document, and
// the script with it.

import { scriptElements } from '../lib/landing-script.ts';
import { LANDING_TEXT_DEFAULTS } from '../lib/landing-text-defaults.ts';
import { pageTitle } from '../lib/page-title.ts';
import { pickLanguage } from '../login/rules.ts';
import { mountOptin } from './optin.ts';
import { openPublicPage } from './page-modal.ts';
import { mountSlider } from './slider.ts';
import TEXTS from './texts.json';

// Same keys as lib/auth-store.ts and lib/i18n.ts.
const TOKEN = 'access_token';
const ROLE_GROUP = 'role_group';
const LANG = 'lang';

type SiteData = {
  title: string;
  headerLogo: string | null;
  favicon: string | null;
  supportEmail: string | null;
  address: string | null;
  custom_script: string | null;
  landingTexts?: Partial<Record<string, Partial<Record<string, string>>>>;
};
type TextKey = keyof typeof LANDING_TEXT_DEFAULTS;

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** The site data, when the server did not embed it (the page opened as /landing.html, e.g. in development). */
async function loadSite(lang: string): Promise<SiteData | null> {
  try {
    const res = await fetch(`/api/v1/settings/site-data/${encodeURIComponent(location.host)}`, {
      headers: { accept: 'application/json', 'accept-language': lang },
    });
    return res.ok ? ((await res.json()) as { data: SiteData }).data : null;
  } catch {
    return null;
  }
}

function start(): void {
  const lang = pickLanguage(localStorage.getItem(LANG), navigator.languages ?? [navigator.language]);
  const t: Record<string, string> = TEXTS[lang];
  document.documentElement.lang = lang === 'br' ? 'pt-BR' : lang;
  if (lang !== 'en') {
    for (const el of document.querySelectorAll<HTMLElement>('[data-t]')) {
      const text = t[el.dataset.t ?? ''];
      if (text) el.textContent = text;
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-ta]')) {
      const text = t[el.dataset.ta ?? ''];
      if (text) el.setAttribute('aria-label', text);
    }
  }

  // Signed in: Dashboard, to the user's own area, and no Login link (as the app's header).
  const group = localStorage.getItem(TOKEN) ? localStorage.getItem(ROLE_GROUP) : null;
  if (group && /^[A-Za-z]+$/.test(group)) {
    byId('landing-login').remove();
    const old = byId('landing-header-button');
    const link = document.createElement('a');
    link.className = old.className;
    link.id = old.id;
    link.href = `/${group.toLowerCase()}/`;
    link.dataset.testid = 'landing-header-button';
    link.textContent = t['landing.dashboard'] ?? 'Dashboard';
    old.replaceWith(link);
  }

  for (const el of document.querySelectorAll<HTMLElement>('[data-scroll]'))
    el.addEventListener('click', () => byId(el.dataset.scroll ?? '')?.scrollIntoView({ block: 'start' }));

  const optin = mountOptin(byId<HTMLDialogElement>('optin'), t);
  for (const el of document.querySelectorAll<HTMLElement>('[data-optin]'))
    el.addEventListener('click', optin);
  for (const el of document.querySelectorAll<HTMLElement>('[data-page]'))
    el.addEventListener('click', () => void openPublicPage(el.dataset.page ?? ''));

  mountSlider(byId('slider'), byId('track'), byId('dots'), (n) =>
    (t['landing.testimonials.slide'] ?? 'Slide {n}').replace('{n}', String(n)),
  );
  byId('landing-year').textContent = String(new Date().getFullYear());

  const setTitle = (site?: string) => {
    document.title = pageTitle(t['menu.landing'] ?? '', site);
  };
  const show = (site: SiteData | null) => {
    if (!site) return setTitle();
    setTitle(site.title);
    applySite(site, lang, t);
  };
  const embedded = document.getElementById('site-data');
  if (embedded) show(JSON.parse(embedded.textContent || 'null') as SiteData | null);
  else void loadSite(lang).then(show);
}

/** The agency's texts, branding and script. */
function applySite(site: SiteData, lang: string, t: Record<string, string>): void {
  // The agency's own text in the current language when it set one (issue 23), else the locale's.
  const own = site.landingTexts?.[lang] ?? {};
  for (const el of document.querySelectorAll<HTMLElement>('[data-lt]')) {
    const key = el.dataset.lt as TextKey;
    const text = own[key]?.trim() || t[LANDING_TEXT_DEFAULTS[key]];
    if (text && el.textContent !== text) el.textContent = text;
  }
  if (site.favicon) byId<HTMLLinkElement>('favicon').href = site.favicon;
  const logo = byId<HTMLAnchorElement>('landing-logo');
  if (site.headerLogo) {
    // The server puts it in already (ADR 080); made here for the page opened as /landing.html.
    if (logo.querySelector('img')?.getAttribute('src') !== site.headerLogo) {
      const img = document.createElement('img');
      img.src = site.headerLogo;
      img.alt = site.title;
      img.height = 36;
      logo.replaceChildren(img);
    }
  } else {
    logo.textContent = site.title;
  }
  finish(site);
}

/** The footer's site lines and the agency's custom script. */
function finish(site: SiteData): void {
  byId('landing-site-title').textContent = site.title;
  if (site.address) {
    const address = byId('landing-address');
    address.textContent = site.address;
    address.hidden = false;
  }
  if (site.supportEmail) {
    const email = document.createElement('a');
    email.href = `mailto:${site.supportEmail}`;
    email.textContent = site.supportEmail;
    const line = byId('landing-email-line');
    line.replaceChildren(email);
    line.hidden = false;
  }
  // The agency's custom script (spec 000 §2), with the document's nonce when the server gave one (ADR 079).
  const script = site.custom_script?.trim();
  if (script) for (const el of scriptElements(script)) document.body.appendChild(el);
}

start();
