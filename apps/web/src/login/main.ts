// The light sign-in page (login.html, ADR 025): no React, no Mantine, no zod, no i18next. The form in the
// HTML is usable before this runs; this translates it, checks it like the app, signs in and then hands
// over to the app, and shows the site's branding when the site data arrives (the form never waits).
import { pageTitle } from '../lib/page-title.ts';
import { pickLanguage, safeRedirect, type Texts, validateLogin } from './rules.ts';
import TEXTS from './texts.json';

// Same keys and shape as lib/auth-store.ts and lib/i18n.ts.
const TOKEN = 'access_token';
const ROLE_GROUP = 'role_group';
const LANG = 'lang';

type SiteData = {
  title: string;
  loginLogo: string | null;
  headerLogo: string | null;
  favicon: string | null;
  maintenance: boolean;
};
type Answer = {
  message?: string;
  errors?: Record<string, string[]>;
  access_token?: string;
  role_group?: string;
};

const FIELDS = ['email', 'password'] as const;

/** Zapier's sign-in (ADR 089): /auth/login?client_id&redirect_uri&state&response_type=code. */
type OAuthAsk = { client_id: string; redirect_uri: string; state: string | null };
function oauthAsk(): OAuthAsk | null {
  const p = new URLSearchParams(location.search);
  const client_id = p.get('client_id');
  const redirect_uri = p.get('redirect_uri');
  if (p.get('response_type') !== 'code' || !client_id || !redirect_uri) return null;
  return { client_id, redirect_uri, state: p.get('state') };
}

/**
 * The consent step once signed in: "Allow Zapier to use <business>?" from GET /v1/oauth-login (which
 * checks the app, the redirect address and the business); Allow asks POST /v1/oauth-login for the
 * redirect with its one-use code; Cancel goes back to the app with access_denied (only to an address the
 * server recognised). A stale session shows the form again.
 */
async function showConsent(ask: OAuthAsk, t: Texts, lang: string, onSignedOut: () => void): Promise<void> {
  const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const token = localStorage.getItem(TOKEN) ?? '';
  const headers = {
    accept: 'application/json',
    'accept-language': lang,
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
  };
  const section = byId<HTMLElement>('oauth-consent');
  const alert = byId<HTMLParagraphElement>('oauth-alert');
  const allow = byId<HTMLButtonElement>('oauth-allow');
  const deny = byId<HTMLButtonElement>('oauth-deny');
  const fail = (message: string | undefined) => {
    alert.textContent = message ?? t['errors.server'] ?? '';
    alert.hidden = false;
  };
  byId<HTMLFormElement>('login-form').hidden = true;
  section.hidden = false;
  let known = false;
  deny.onclick = () => {
    if (!known) return location.replace('/');
    const back = new URL(ask.redirect_uri);
    back.searchParams.set('error', 'access_denied');
    if (ask.state !== null) back.searchParams.set('state', ask.state);
    location.replace(back.toString());
  };
  const query = new URLSearchParams({ client_id: ask.client_id, redirect_uri: ask.redirect_uri });
  let res: Response | null = null;
  try {
    res = await fetch(`/api/v1/oauth-login?${query}`, { headers });
  } catch {
    // Shown below.
  }
  const body = (await res?.json().catch(() => null)) as {
    data?: { app: string; business: string };
    message?: string;
  } | null;
  if (res?.status === 401) {
    localStorage.removeItem(TOKEN);
    section.hidden = true;
    byId<HTMLFormElement>('login-form').hidden = false;
    onSignedOut();
    return;
  }
  if (!res?.ok || !body?.data) return fail(body?.message);
  known = true;
  byId<HTMLParagraphElement>('oauth-consent-text').textContent = (t['zapier.consent.text'] ?? '')
    .replace('{app}', body.data.app)
    .replace('{business}', body.data.business);
  allow.disabled = false;
  allow.onclick = async () => {
    allow.disabled = true;
    let answer: Response | null = null;
    try {
      answer = await fetch('/api/v1/oauth-login', {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...ask, state: ask.state ?? undefined, response_type: 'code' }),
      });
    } catch {
      // Shown below.
    }
    const out = (await answer?.json().catch(() => null)) as {
      data?: { redirect: string };
      message?: string;
    } | null;
    if (answer?.ok && out?.data?.redirect) return location.replace(out.data.redirect);
    allow.disabled = false;
    fail(out?.message);
  };
}

function start(): void {
  const ask = oauthAsk();
  // Already signed in: the app takes it from here, in the user's own area ('/' may be the site's landing
  // page, which a signed-in visitor may also see); Zapier's sign-in goes to its consent.
  if (localStorage.getItem(TOKEN) && !ask) {
    const group = localStorage.getItem('role_group');
    location.replace(group && /^[A-Za-z]+$/.test(group) ? `/${group.toLowerCase()}/` : '/');
    return;
  }
  const lang = pickLanguage(localStorage.getItem(LANG), navigator.languages ?? [navigator.language]);
  const t: Texts = TEXTS[lang];
  const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const form = byId<HTMLFormElement>('login-form');
  const submit = form.querySelector<HTMLButtonElement>('button[type=submit]');
  const alert = byId<HTMLParagraphElement>('login-alert');
  const input = (name: string) => byId<HTMLInputElement>(`login-${name}`);
  let siteTitle: string | undefined;

  document.documentElement.lang = lang === 'br' ? 'pt-BR' : lang;
  for (const el of document.querySelectorAll<HTMLElement>('[data-t]')) {
    const text = t[el.dataset.t ?? ''];
    if (text) el.textContent = text;
  }
  const setTitle = () => {
    document.title = pageTitle(t['auth.login'] ?? '', siteTitle);
  };
  setTitle();

  const eye = byId<HTMLButtonElement>('login-eye');
  eye.addEventListener('click', () => {
    const pw = input('password');
    pw.type = pw.type === 'password' ? 'text' : 'password';
  });

  function showError(name: string, message: string | undefined): void {
    const el = input(name);
    const error = byId<HTMLParagraphElement>(`login-${name}-error`);
    error.textContent = message ?? '';
    error.hidden = !message;
    if (message) {
      el.setAttribute('aria-invalid', 'true');
      el.setAttribute('aria-describedby', error.id);
    } else {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
    }
  }
  function showAlert(message: string | undefined): void {
    alert.textContent = message ?? '';
    alert.hidden = !message;
  }
  // Like the app's form: a field's message goes once the field is edited.
  for (const name of FIELDS) input(name).addEventListener('input', () => showError(name, undefined));

  // Ready: the submit button of the HTML waits for this script.
  if (submit) submit.disabled = false;
  if (ask && localStorage.getItem(TOKEN)) void showConsent(ask, t, lang, () => undefined);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (submit?.getAttribute('aria-busy') === 'true') return;
    const email = input('email').value;
    const password = input('password').value;
    const errors = validateLogin(email, password, t);
    showAlert(undefined);
    for (const name of FIELDS) showError(name, errors[name]);
    const first = FIELDS.find((name) => errors[name]);
    if (first) {
      input(first).focus();
      return;
    }
    submit?.setAttribute('aria-busy', 'true');
    let status = 0;
    let body: Answer | null = null;
    try {
      const res = await fetch('/api/v1/login', {
        method: 'POST',
        headers: { accept: 'application/json', 'accept-language': lang, 'content-type': 'application/json' },
        body: JSON.stringify({ email: email.trim(), password }),
      });
      status = res.status;
      body = res.headers.get('content-type')?.includes('json') ? await res.json().catch(() => null) : null;
    } catch {
      // No answer: the network or the server is down (shown below).
    }
    if (status === 200 && body?.access_token && body.role_group) {
      localStorage.setItem(TOKEN, body.access_token);
      localStorage.setItem(ROLE_GROUP, body.role_group);
      if (ask) {
        submit?.removeAttribute('aria-busy');
        void showConsent(ask, t, lang, () => undefined);
        return;
      }
      const target = safeRedirect(new URLSearchParams(location.search).get('redirect'));
      location.replace(target ?? `/${body.role_group.toLowerCase()}/`);
      return;
    }
    submit?.removeAttribute('aria-busy');
    // 422: each message under its field; anything else (locked, throttled, down) in the alert.
    const fieldErrors = status === 422 ? (body?.errors ?? {}) : {};
    let shown = false;
    for (const name of FIELDS) {
      const message = fieldErrors[name]?.[0];
      if (message) {
        showError(name, message);
        shown = true;
      }
    }
    if (!shown) showAlert(Object.values(fieldErrors)[0]?.[0] ?? body?.message ?? t['errors.server']);
  });

  // The site's branding, after the form is usable.
  void fetch(`/api/v1/settings/site-data/${encodeURIComponent(location.host)}`, {
    headers: { accept: 'application/json', 'accept-language': lang },
  })
    .then((res) => (res.ok ? (res.json() as Promise<{ data: SiteData }>) : null))
    .then((answer) => {
      const site = answer?.data;
      if (!site) return;
      siteTitle = site.title;
      setTitle();
      if (site.favicon) byId<HTMLLinkElement>('favicon').href = site.favicon;
      if (site.maintenance) return showMaintenance(site.title, t['app.maintenance'] ?? '');
      const panel = byId<HTMLDivElement>('site-title');
      const logo = site.loginLogo ?? site.headerLogo;
      if (logo) {
        const img = document.createElement('img');
        img.src = logo;
        img.alt = site.title;
        img.dataset.testid = 'login-logo';
        panel.replaceWith(img);
      } else {
        panel.textContent = site.title;
      }
    })
    .catch(() => undefined);
}

/** Maintenance: the notice instead of the page, as the app shows it. */
function showMaintenance(title: string, text: string): void {
  const box = document.createElement('div');
  box.className = 'maintenance';
  box.dataset.testid = 'maintenance';
  const inner = document.createElement('div');
  const h = document.createElement('h2');
  h.textContent = title;
  const p = document.createElement('p');
  p.textContent = text;
  inner.append(h, p);
  box.append(inner);
  document.getElementById('page')?.replaceWith(box);
}

start();
