// The opt-in demo modal of the light landing page (spec 000 §2, §4 idle → submitting → submitted, §5: every
// field required, no format checks; §8 texts): the <dialog id="optin"> of landing.html.
// POST /api/v1/agencies/optin-users with the page's host as domain.

export const OPTIN_FIELDS = ['email', 'full_name', 'business_name', 'phone'] as const;
type Field = (typeof OPTIN_FIELDS)[number];

/** The fields left empty (spec §5: nothing is sent while one is). */
export function emptyFields(values: Record<Field, string>): Field[] {
  return OPTIN_FIELDS.filter((f) => values[f].trim() === '');
}

/** Wires the dialog; answers the function that opens it. */
export function mountOptin(dialog: HTMLDialogElement, t: Record<string, string>): () => void {
  const form = dialog.querySelector('form') as HTMLFormElement;
  const submit = form.querySelector<HTMLButtonElement>('button[type=submit]') as HTMLButtonElement;
  const success = dialog.querySelector<HTMLElement>('#optin-success') as HTMLElement;
  const failure = dialog.querySelector<HTMLElement>('#optin-failure') as HTMLElement;
  const input = (f: Field) => dialog.querySelector<HTMLInputElement>(`#optin-${f}`) as HTMLInputElement;
  let submitting = false;

  const markError = (f: Field, on: boolean) => {
    const el = input(f);
    const error = dialog.querySelector<HTMLElement>(`#optin-${f}-error`) as HTMLElement;
    error.textContent = on ? (t['landing.optin.required'] ?? '') : '';
    error.hidden = !on;
    if (on) {
      el.setAttribute('aria-invalid', 'true');
      el.setAttribute('aria-describedby', error.id);
    } else {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
    }
  };
  const state = (s: 'idle' | 'submitting' | 'success' | 'failure') => {
    submitting = s === 'submitting';
    submit.disabled = submitting;
    submit.textContent = submitting
      ? (t['landing.optin.submitting'] ?? '')
      : (t['landing.request_demo_today'] ?? '');
    success.hidden = s !== 'success';
    failure.hidden = s !== 'failure';
  };

  for (const f of OPTIN_FIELDS) input(f).addEventListener('input', () => markError(f, false));
  for (const el of dialog.querySelectorAll('[data-close]'))
    el.addEventListener('click', () => dialog.close());
  // A click on the backdrop (the dialog element itself, outside its content) closes it.
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) dialog.close();
  });
  dialog.addEventListener('close', () => {
    if (!submitting) state('idle');
    for (const f of OPTIN_FIELDS) markError(f, false);
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (submitting) return;
    const values = Object.fromEntries(OPTIN_FIELDS.map((f) => [f, input(f).value])) as Record<Field, string>;
    const empty = emptyFields(values);
    for (const f of OPTIN_FIELDS) markError(f, empty.includes(f));
    if (empty.length) {
      input(empty[0] as Field).focus();
      return;
    }
    state('submitting');
    try {
      const res = await fetch('/api/v1/agencies/optin-users', {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ ...values, domain: location.host }),
      });
      if (!res.ok) throw new Error(String(res.status));
      state('success');
      form.reset();
    } catch {
      state('failure');
    }
  });

  return () => {
    if (!dialog.open) dialog.showModal();
  };
}
