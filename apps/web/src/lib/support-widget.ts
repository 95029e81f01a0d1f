import type { TUser } from '@stn/contracts/profile';
import { useEffect } from 'react';

// The support chat of spec 000 §2 Layout (issue 11, ADR 042): the platform's own website widget, loaded
// with the embed code's loader (/widget.js, data-key) for agencies on every route but landing, login,
// product-order and product-thankyou, and for businesses under the main agency (with their own install);
// otherwise removed: its script, the loader's global (window.STNWidget) and its host element. The server
// decides which install a user gets (the profile's support_widget_key); this file decides where.

/** The routes the support chat never shows on (the spec's landing, login, product-order, product-thankyou). */
export const SUPPORT_WIDGET_HIDDEN_ROUTES: ReadonlySet<string> = new Set([
  'landing',
  'login',
  'auth',
  'product-order',
  'product-thankyou',
]);

/** The install key to load for this user on this route, or null: the chat is removed. */
export function supportWidgetKeyFor(
  user: Pick<TUser, 'role_group' | 'agency' | 'support_widget_key'> | null,
  routeName: string,
): string | null {
  if (!user?.support_widget_key || SUPPORT_WIDGET_HIDDEN_ROUTES.has(routeName)) return null;
  const forUser = user.role_group === 'Agency' || (user.role_group === 'Business' && user.agency?.is_main);
  return forUser ? user.support_widget_key : null;
}

const SCRIPT_MARK = 'data-stn-support';
/** The loader appends its host element to body; the install screen's live preview renders elsewhere. */
const HOST_SELECTOR = 'body > [data-stn-widget]';

let loadedKey: string | null = null;
let guard: MutationObserver | null = null;

declare global {
  interface Window {
    STNWidget?: { open(): void; close(): void; preview(el: Element, config: unknown): void };
  }
}

/**
 * Removes any host a loader still on its way adds after the chat was removed (its config request may
 * answer after a sign-out): the loader cannot be called back once its script has run.
 */
function guardAgainstLateHosts() {
  if (guard || typeof MutationObserver === 'undefined') return;
  guard = new MutationObserver(() => {
    if (loadedKey === null) for (const el of document.querySelectorAll(HOST_SELECTOR)) el.remove();
  });
  guard.observe(document.body, { childList: true });
}

/** Takes the support chat off the page: its script, its host element and the loader's global. */
export function removeSupportWidget(): void {
  loadedKey = null;
  for (const el of document.querySelectorAll(`script[${SCRIPT_MARK}]`)) el.remove();
  for (const el of document.querySelectorAll(HOST_SELECTOR)) el.remove();
  // The install screen's live preview defines the same global with its own script: leave it to that one.
  const otherLoader = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].some((s) =>
    /\/widget\.js(\?|$)/.test(s.src),
  );
  if (!otherLoader) delete window.STNWidget;
  guardAgainstLateHosts();
}

/** Shows the support chat of this install key (null: none), replacing another one. */
export function applySupportWidget(key: string | null): void {
  if (key === loadedKey) return;
  removeSupportWidget();
  if (!key) return;
  loadedKey = key;
  // The loader does nothing when the global exists ("the first one wins"): one a preview script left
  // behind would keep the chat from drawing. Ours offers the same preview(), so the preview loses nothing.
  delete window.STNWidget;
  const script = document.createElement('script');
  script.src = '/widget.js';
  script.async = true;
  script.dataset.key = key;
  script.setAttribute(SCRIPT_MARK, '');
  document.body.appendChild(script);
}

/**
 * Keeps the support chat in step with the signed-in user and the route: a sign-out or an impersonation
 * switch clears the user first, which removes the chat; the next profile brings its own.
 */
export function useSupportWidget(user: TUser | null, routeName: string): void {
  const key = supportWidgetKeyFor(user, routeName);
  useEffect(() => applySupportWidget(key), [key]);
  useEffect(() => () => removeSupportWidget(), []);
}
