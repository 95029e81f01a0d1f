// The custom script of an agency's landing page (spec 000 §2 "Landing page"): installed while the landing
// route shows, removed CUSTOM_SCRIPT_CLEANUP_MS after it no longer does (spec §9), kept when the visitor is
// back on the landing route before then.

/** Spec 000 §9 "Custom script cleanup 3000 ms". */
export const CUSTOM_SCRIPT_CLEANUP_MS = 3000;

/** The attribute that marks what the landing page added to the document. */
export const LANDING_SCRIPT_ATTR = 'data-landing-script';

/**
 * The nonce the server gives a document that may run the agency's script (ADR 079: a meta element, since a
 * script's own nonce attribute is hidden from the page). Without it the elements are added and stay inert.
 */
function scriptNonce(doc: Document): string | null {
  return doc.querySelector('meta[name="custom-script-nonce"]')?.getAttribute('content') || null;
}

let installed: { source: string; elements: HTMLElement[] } | null = null;
let cleanup: ReturnType<typeof setTimeout> | null = null;

/**
 * The elements a custom script stands for. An agency pastes either plain JavaScript or markup with
 * <script> tags (a tracking snippet): markup's scripts are made anew, since a parsed <script> never runs.
 */
export function scriptElements(source: string, doc: Document = document): HTMLElement[] {
  const nonce = scriptNonce(doc);
  if (!/<script[\s>]/i.test(source)) {
    const el = doc.createElement('script');
    el.textContent = source;
    el.setAttribute(LANDING_SCRIPT_ATTR, '');
    if (nonce) el.nonce = nonce;
    return [el];
  }
  const template = doc.createElement('template');
  template.innerHTML = source;
  return Array.from(template.content.querySelectorAll('script')).map((parsed) => {
    const el = doc.createElement('script');
    for (const attr of Array.from(parsed.attributes)) el.setAttribute(attr.name, attr.value);
    el.textContent = parsed.textContent;
    el.setAttribute(LANDING_SCRIPT_ATTR, '');
    if (nonce) el.nonce = nonce;
    return el;
  });
}

/** Installs the script (once: the same script still installed is kept) and cancels a pending removal. */
export function installLandingScript(source: string | null): void {
  if (cleanup) clearTimeout(cleanup);
  cleanup = null;
  const text = source?.trim() ?? '';
  if (installed?.source === text) return;
  removeLandingScript();
  if (!text) return;
  const elements = scriptElements(text);
  for (const el of elements) document.body.appendChild(el);
  installed = { source: text, elements };
}

/** Removes the installed script now. */
export function removeLandingScript(): void {
  for (const el of installed?.elements ?? []) el.remove();
  installed = null;
}

/** The landing route is left: the script goes after the cleanup delay unless the visitor comes back. */
export function scheduleLandingScriptRemoval(delay = CUSTOM_SCRIPT_CLEANUP_MS): void {
  if (cleanup) clearTimeout(cleanup);
  cleanup = setTimeout(() => {
    cleanup = null;
    removeLandingScript();
  }, delay);
}
