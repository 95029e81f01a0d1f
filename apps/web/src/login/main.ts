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

function start(): void {
  // Already signed in: the app takes it from here, in the user's own area ('/' may be the site's landing
  // page, which a signed-in visitor may also see).
  if (localStorage.getItem(TOKEN)) {
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
