// A lead form as the visitor fills it in (issue 21): its steps one at a time (title, "Step 1 of 3", Back and
// Next, Send on the last), every question type, each step checked with the contracts' checkLeadAnswers
// before the next (the server checks the whole form with the same function), the server's refusals next
// to their fields (the form goes back to the step of the first), the thanks in a live region or the
// embedded form's redirect. Rendered in the widget's panel (mode 'lead') and inline in a page's
// placeholder (embedded forms, ./index.tsx). Nothing typed is lost on an error or a language change.
import {
  checkLeadAnswers,
  LEAD_MESSAGES,
  leadLanguage,
  localized,
  type TLeadAnswer,
  type TLeadAnswers,
  type TLeadFormPublic,
  type TLeadLanguage,
  type TLeadQuestionPublic,
  type TLocalized,
} from '@stn/contracts/lead-form-public';
import type { TWidgetLeadAnswer } from '@stn/contracts/leadforms';
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApiResult } from '../app/api.ts';
import { lazyOnce } from '../shared.ts';
import { firstError, has, hasType, leadText, leadUi, leadVars, serverErrors } from './logic.ts';

/** The phone check (libphonenumber, a chunk of its own): loaded when the visitor reaches a phone field. */
const loadPhone = lazyOnce(() => import('@stn/contracts/widget-phone'));
/** The check of a phone answer; when it cannot load (offline for a moment) the server checks it. */
const phoneCheck = async (): Promise<(raw: string) => string | null> => {
  try {
    return (await loadPhone()).widgetPhoneToE164;
  } catch {
    return (raw) => raw.trim() || null;
  }
};

/** POST /api/widget/v1/lead's body (ZWidgetLeadRequest). */
export type LeadBody = {
  form_id: number;
  embed_id?: number;
  language: TLeadLanguage;
  answers: TLeadAnswers;
  page_url?: string;
  website?: string;
};

/** What survives the form being drawn again (the panel's modes switched): the answers and the step. */
export type LeadKept = { answers: TLeadAnswers; step: number; thanks: string | null };

export type LeadFormProps = {
  form: TLeadFormPublic;
  /** The visitor's language: the form's own when it has it, else its first (leadLanguage). */
  lang: string;
  /** Sends the answers; null in a preview (the thanks shows, nothing is sent). */
  send: ((body: LeadBody) => Promise<ApiResult<TWidgetLeadAnswer>>) | null;
  /** An embedded form's id (its submissions say so). */
  embedId?: number;
  showTitle: boolean;
  /** The title's heading level: 2 inline on a page, 3 under the panel's own title. */
  level: 2 | 3;
  /** Unique in its shadow root: the fields' ids start with it. */
  idp: string;
  /** Focus moves to the first field once drawn (the visitor opened the panel). */
  autoFocus: boolean;
  /** The install's colours for the buttons instead of the form's. */
  button?: { background: string; color: string };
  kept?: LeadKept;
};

export function LeadForm(props: LeadFormProps): JSX.Element {
  const { form } = props;
  const lang = leadLanguage(form, props.lang);
  const own = useRef<LeadKept>({ answers: {}, step: 0, thanks: null });
  const kept = props.kept ?? own.current;
  const [answers, setAnswers] = useState<TLeadAnswers>(kept.answers);
  const [step, setStepState] = useState(Math.min(kept.step, form.steps.length - 1));
  const [thanks, setThanks] = useState<string | null>(kept.thanks);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const [website, setWebsite] = useState('');
  const root = useRef<HTMLDivElement>(null);
  // The field to focus once drawn: a question's first input, or '' for the step's first field. A state,
  // so that it is focused after the render that shows it (the step changed with it), never before; and
  // in the same frame (a layout effect), so that a key pressed as the new step appears goes to its field,
  // not to the button that was pressed (Back, pressed again, would go back twice).
  const [focus, setFocus] = useState<{ q: string } | null>(props.autoFocus ? { q: '' } : null);
  const focusTo = (q: string) => setFocus({ q });

  // The messages are the language's: a new language clears the old ones (the answers stay).
  useEffect(() => {
    setErrors({});
    setNotice('');
  }, [lang]);

  useLayoutEffect(() => {
    const el = root.current;
    if (!focus || !el) return;
    (el.querySelector<HTMLElement>(focus.q ? `[data-q="${focus.q}"]` : '[data-q]') ?? null)?.focus();
  }, [focus]);

  const first = form.languages[0];
  const loc = (t: TLocalized | undefined) => localized(t, lang, first);
  const id = (k: string) => `${props.idp}-${k}`;
  const msg = LEAD_MESSAGES[lang];
  const steps = form.steps;
  const last = step >= steps.length - 1;

  const setStep = (n: number) => {
    kept.step = n;
    setStepState(n);
  };
  const answer = (qid: string, v: TLeadAnswer) => {
    setAnswers((a) => {
      const next = { ...a, [qid]: v };
      kept.answers = next;
      return next;
    });
  };

  /** Shows errors by question (texts), goes to the step of the first and focuses it. */
  const refuse = (byQuestion: Record<string, string>, text: string) => {
    setErrors(byQuestion);
    setNotice(text);
    const at = firstError(form, byQuestion);
    if (at) {
      if (at.step !== step) setStep(at.step);
      focusTo(at.question);
    }
  };

  async function onSubmit(ev: Event) {
    ev.preventDefault();
    if (busy) return;
    // Each step is checked before the next; the last checks the whole form, as the server will.
    const only = last ? undefined : [step];
    const check = hasType(form, 'phone', only) ? await phoneCheck() : (raw: string) => raw;
    const r = checkLeadAnswers(form, answers, check, only);
    const byQuestion: Record<string, string> = {};
    let bad = false;
    for (const k in r.errors) {
      if (!Object.hasOwn(r.errors, k)) continue;
      byQuestion[k] = msg[r.errors[k] as keyof typeof msg];
      bad = true;
    }
    if (bad) return refuse(byQuestion, leadUi(lang, 'error'));
    setErrors({});
    setNotice('');
    if (!last) {
      setStep(step + 1);
      focusTo('');
      return;
    }
    const done = (text: string) => {
      kept.thanks = text;
      kept.answers = {};
      kept.step = 0;
      setThanks(text);
    };
    if (!props.send) return done(leadText(form, lang, 'thanks'));
    setBusy(true);
    try {
      const body: LeadBody = { form_id: form.id, language: lang, answers: r.values, website };
      if (props.embedId) body.embed_id = props.embedId;
      try {
        body.page_url = location.href.slice(0, 1000);
      } catch {
        // A sandboxed page may not tell its address.
      }
      const res = await props.send(body);
      if (res.ok) {
        if (res.data.redirect_url) {
          window.location.assign(res.data.redirect_url);
          return;
        }
        return done(res.data.thanks || leadText(form, lang, 'thanks'));
      }
      if (res.status === 422) {
        const e = serverErrors(res.errors);
        return refuse(e.byQuestion, e.rest ? `${leadUi(lang, 'error')} ${e.rest}` : leadUi(lang, 'error'));
      }
      setNotice(
        res.status && res.message ? `${leadUi(lang, 'exception')} ${res.message}` : leadUi(lang, 'exception'),
      );
    } finally {
      setBusy(false);
    }
  }

  /** A question's label, its field, its error. */
  function question(q: TLeadQuestionPublic): ComponentChildren {
    const fid = id(`q-${q.id}`);
    const err = errors[q.id];
    const eid = id(`e-${q.id}`);
    const label = loc(q.label);
    const mark = q.required ? <span class="req"> ({leadUi(lang, 'required')})</span> : null;
    const error = err ? (
      <p class="fe" id={eid} data-testid={`stn-lead-error-${q.id}`}>
        {err}
      </p>
    ) : null;
    const a = answers[q.id];
    const state = {
      'aria-invalid': err ? ('true' as const) : ('false' as const),
      'aria-describedby': err ? eid : undefined,
    };
    if (q.type === 'choice') {
      const multi = q.is_allow_multi_select;
      const picked = Array.isArray(a) ? a : typeof a === 'string' && a ? [a] : [];
      const options: ComponentChildren[] = [];
      for (let i = 0; i < q.options.length; i++) {
        const o = q.options[i] as TLeadQuestionPublic['options'][number];
        const oid = `${fid}-${i}`;
        const on = has(picked, o.id);
        options[i] = (
          <div class="c" key={o.id}>
            <input
              type={multi ? 'checkbox' : 'radio'}
              id={oid}
              name={fid}
              value={o.id}
              data-q={q.id}
              data-testid={`stn-q-${q.id}-${o.id}`}
              checked={on}
              aria-invalid={multi && err ? 'true' : undefined}
              aria-required={!multi && q.required ? 'true' : undefined}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                if (!multi) return answer(q.id, o.id);
                const next: string[] = [];
                for (let j = 0; j < q.options.length; j++) {
                  const other = (q.options[j] as { id: string }).id;
                  if (other === o.id ? checked : has(picked, other)) next[next.length] = other;
                }
                answer(q.id, next);
              }}
            />
            <label for={oid}>{loc(o.label)}</label>
          </div>
        );
      }
      // A fieldset named by its legend; its error said on the group (and on each checkbox).
      return (
        <fieldset
          class="f g"
          key={q.id}
          data-testid={`stn-q-${q.id}`}
          aria-invalid={err ? 'true' : undefined}
          aria-describedby={err ? eid : undefined}
        >
          <legend>
            {label}
            {mark}
          </legend>
          {options}
          {error}
        </fieldset>
      );
    }
    if (q.type === 'consent') {
      return (
        <div class="f c" key={q.id}>
          <input
            type="checkbox"
            id={fid}
            data-q={q.id}
            data-testid={`stn-q-${q.id}`}
            checked={a === true}
            aria-required={q.required ? 'true' : undefined}
            {...state}
            onChange={(e) => answer(q.id, e.currentTarget.checked)}
          />
          <label for={fid}>
            {label}
            {mark}
          </label>
          {error}
        </div>
      );
    }
    const common = {
      id: fid,
      'data-q': q.id,
      'data-testid': `stn-q-${q.id}`,
      value: typeof a === 'string' ? a : '',
      placeholder: loc(q.placeholder) || undefined,
      'aria-required': q.required ? ('true' as const) : undefined,
      ...state,
      onInput: (e: JSX.TargetedEvent<HTMLInputElement | HTMLTextAreaElement>) =>
        answer(q.id, e.currentTarget.value),
    };
    let field: ComponentChildren;
    if (q.type === 'long_text') field = <textarea {...common} rows={3} maxLength={5000} />;
    else if (q.type === 'phone')
      field = (
        <input
          {...common}
          type="tel"
          autocomplete="tel"
          maxLength={40}
          onFocus={() => void loadPhone().catch(() => undefined)}
        />
      );
    else if (q.type === 'email')
      field = <input {...common} type="email" autocomplete="email" maxLength={191} />;
    else if (q.type === 'date') field = <input {...common} type="date" />;
    // A number in a text field with the numeric keyboard: the browser keeps what was typed, and the check
    // says "Please enter a number." rather than an empty field's "required".
    else if (q.type === 'number')
      field = <input {...common} type="text" inputMode="decimal" maxLength={40} />;
    else field = <input {...common} type="text" maxLength={500} />;
    return (
      <div class="f" key={q.id}>
        <label for={fid}>
          {label}
          {mark}
        </label>
        {field}
        {error}
      </div>
    );
  }

  const current = steps[step];
  const title = leadText(form, lang, 'title');
  const description = leadText(form, lang, 'description');
  const stepTitle = current ? loc(current.title) : '';
  const H = props.level === 2 ? 'h2' : 'h3';
  const HS = props.level === 2 ? 'h3' : 'h4';
  const questions: ComponentChildren[] = [];
  const qs = current?.questions ?? [];
  for (let i = 0; i < qs.length; i++) questions[i] = question(qs[i] as TLeadQuestionPublic);

  return (
    <div class="lf" ref={root} style={leadVars(form.styling, props.button)}>
      {props.showTitle ? (
        <>
          <H class="lt" id={id('title')}>
            {title}
          </H>
          {description ? <p class="ld">{description}</p> : null}
        </>
      ) : null}
      {/* The thanks are announced where they appear: a live region drawn before them. */}
      <div role="status" aria-live="polite">
        {thanks !== null ? (
          <p class="lk" data-testid="stn-lead-thanks">
            {thanks}
          </p>
        ) : null}
      </div>
      {thanks !== null ? null : (
        <form
          data-testid="stn-lead-form"
          noValidate
          onSubmit={onSubmit}
          aria-labelledby={props.showTitle ? id('title') : undefined}
          aria-label={props.showTitle ? undefined : title}
        >
          {steps.length > 1 ? (
            <p class="ls" id={id('step')} data-testid="stn-lead-step-of">
              {leadUi(lang, 'step', step + 1, steps.length)}
            </p>
          ) : null}
          <div class="lq" data-testid="stn-lead-step" data-step={step}>
            {stepTitle ? (
              <HS class="lst" id={id('step-title')}>
                {stepTitle}
              </HS>
            ) : null}
            {questions}
          </div>
          {/* A field people never see nor reach; robots fill it and their request is ignored. */}
          <div class="hp" aria-hidden="true">
            <label>
              Website
              <input
                type="text"
                name="website"
                tabIndex={-1}
                autocomplete="off"
                value={website}
                onInput={(e) => setWebsite(e.currentTarget.value)}
              />
            </label>
          </div>
          <div aria-live="assertive">
            {notice ? (
              <p class="resp ko" data-testid="stn-lead-notice">
                {notice}
              </p>
            ) : null}
          </div>
          <div class="lnav">
            {step > 0 ? (
              <button
                type="button"
                class="lback"
                data-testid="stn-lead-back"
                onClick={() => {
                  setErrors({});
                  setNotice('');
                  setStep(step - 1);
                  focusTo('');
                }}
              >
                {leadText(form, lang, 'back')}
              </button>
            ) : null}
            {/* The default button (Enter in a field): Next, or Send on the last step. */}
            <button
              type="submit"
              class="go"
              data-testid={last ? 'stn-lead-submit' : 'stn-lead-next'}
              aria-busy={busy ? 'true' : 'false'}
            >
              {leadText(form, lang, last ? 'submit' : 'next')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
