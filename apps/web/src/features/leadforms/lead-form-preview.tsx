import {
  checkLeadAnswers,
  LEAD_MESSAGES,
  LEAD_TEXT_DEFAULTS,
  localized,
  type TLeadAnswer,
  type TLeadAnswers,
  type TLeadFormPublic,
  type TLeadLanguage,
  type TLeadQuestionPublic,
  type TLeadTextKey,
} from '@stn/contracts/lead-form-public';
import { type CSSProperties, type ReactNode, useId, useState } from 'react';

// The live preview of a lead form (issue 21): the form as the visitor gets it (`publicLeadForm`), in one of
// its languages, with its styling, drawn with plain elements rather than the app's components. It is not
// the widget's code, but it follows the same rules: the form's words else the defaults of LEAD_TEXT_DEFAULTS,
// a step's answers checked by the contracts' checkLeadAnswers before Next, the thanks text after Send. It
// sends nothing.

/** A loose phone check for the preview only (the server normalises with the install's country). */
const previewPhone = (raw: string) => (/^\+?[\d\s().-]{7,20}$/.test(raw) ? raw : null);

export function formText(form: Pick<TLeadFormPublic, 'texts'>, lang: TLeadLanguage, key: TLeadTextKey) {
  const own = form.texts[lang]?.[key]?.trim();
  return own || LEAD_TEXT_DEFAULTS[lang][key];
}

export function LeadFormPreview(props: {
  form: TLeadFormPublic;
  lang: TLeadLanguage;
  step: number;
  onStep: (step: number) => void;
  showTitle?: boolean;
  /** The label of the thanks screen's button that starts the preview again. */
  restartLabel: string;
  testId?: string;
}) {
  const { form, lang } = props;
  const s = form.styling;
  const step = Math.min(Math.max(0, props.step), Math.max(0, form.steps.length - 1));
  const current = form.steps[step];
  const last = step >= form.steps.length - 1;
  const [answers, setAnswers] = useState<TLeadAnswers>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState(false);
  const fallback = form.languages[0];

  const box: CSSProperties = {
    boxSizing: 'border-box',
    maxWidth: s.MaxWidth,
    width: '100%',
    padding: s.Padding,
    background: s.BackgroundColor,
    color: s.Color,
    border: `1px solid ${s.BorderColor}`,
    borderRadius: s.Roudness,
    fontFamily: 'system-ui, sans-serif',
    fontSize: 14,
  };
  const button = (primary: boolean): CSSProperties => ({
    padding: '8px 16px',
    borderRadius: Math.min(s.Roudness, 20),
    border: primary ? 'none' : `1px solid ${s.BorderColor}`,
    background: primary ? s.ButtonColor : 'transparent',
    color: primary ? s.ButtonTextColor : s.Color,
    cursor: 'pointer',
    fontSize: 14,
  });

  const set = (id: string, value: TLeadAnswer) => {
    setAnswers((a) => ({ ...a, [id]: value }));
    setErrors((e) => {
      if (!(id in e)) return e;
      const { [id]: _gone, ...rest } = e;
      return rest;
    });
  };
  const go = () => {
    const found = checkLeadAnswers(form, answers, previewPhone, [step]).errors;
    setErrors(Object.fromEntries(Object.entries(found).map(([id, key]) => [id, LEAD_MESSAGES[lang][key]])));
    if (Object.keys(found).length > 0) return;
    if (last) setSent(true);
    else props.onStep(step + 1);
  };

  const title = formText(form, lang, 'title');
  const description = formText(form, lang, 'description');
  return (
    <div
      style={box}
      data-testid={props.testId}
      data-lang={lang}
      data-step={step}
      lang={lang === 'br' ? 'pt-BR' : lang}
    >
      {props.showTitle !== false && (
        <>
          <div style={{ fontSize: 18, fontWeight: 700, marginBottom: 4 }}>{title}</div>
          {description && <div style={{ marginBottom: 8, opacity: 0.85 }}>{description}</div>}
        </>
      )}
      {sent ? (
        <div role="status" data-testid={props.testId && `${props.testId}-thanks`}>
          <p>{formText(form, lang, 'thanks')}</p>
          <button
            type="button"
            style={button(false)}
            onClick={() => {
              setSent(false);
              setAnswers({});
              props.onStep(0);
            }}
          >
            {props.restartLabel}
          </button>
        </div>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            go();
          }}
        >
          {form.steps.length > 1 && (
            <div style={{ fontSize: 12, opacity: 0.7, marginBottom: 4 }}>
              {step + 1} / {form.steps.length}
            </div>
          )}
          {current && localized(current.title, lang, fallback) && (
            <div style={{ fontWeight: 600, marginBottom: 8 }}>{localized(current.title, lang, fallback)}</div>
          )}
          {current?.questions.map((q) => (
            <Question
              key={q.id}
              q={q}
              lang={lang}
              fallback={fallback}
              value={answers[q.id]}
              error={errors[q.id]}
              borderColor={s.BorderColor}
              radius={Math.min(s.Roudness, 12)}
              onChange={(v) => set(q.id, v)}
            />
          ))}
          <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, marginTop: 12 }}>
            {step > 0 ? (
              <button type="button" style={button(false)} onClick={() => props.onStep(step - 1)}>
                {formText(form, lang, 'back')}
              </button>
            ) : (
              <span />
            )}
            <button type="submit" style={button(true)}>
              {formText(form, lang, last ? 'submit' : 'next')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

function Question(props: {
  q: TLeadQuestionPublic;
  lang: TLeadLanguage;
  fallback: TLeadLanguage | undefined;
  value: TLeadAnswer | undefined;
  error: string | undefined;
  borderColor: string;
  radius: number;
  onChange: (v: TLeadAnswer) => void;
}) {
  const { q, lang } = props;
  const id = useId();
  const label = localized(q.label, lang, props.fallback);
  const placeholder = localized(q.placeholder, lang, props.fallback);
  const field: CSSProperties = {
    boxSizing: 'border-box',
    width: '100%',
    padding: 8,
    border: `1px solid ${props.error ? '#d33' : props.borderColor}`,
    borderRadius: props.radius,
    font: 'inherit',
  };
  const mark = q.required ? ' *' : '';
  const errorId = `${id}-error`;
  const described = props.error ? { 'aria-describedby': errorId, 'aria-invalid': true } : {};
  const text = typeof props.value === 'string' ? props.value : '';
  let control: ReactNode;
  if (q.type === 'consent') {
    control = (
      <label style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
        <input
          type="checkbox"
          checked={props.value === true}
          onChange={(e) => props.onChange(e.currentTarget.checked)}
          {...described}
        />
        <span>
          {label}
          {mark}
        </span>
      </label>
    );
  } else if (q.type === 'choice') {
    const picked = Array.isArray(props.value) ? props.value : [];
    control = (
      <fieldset style={{ border: 'none', padding: 0, margin: 0 }} {...described}>
        <legend style={{ padding: 0, marginBottom: 4, fontWeight: 500 }}>
          {label}
          {mark}
        </legend>
        {q.options.map((o) => (
          <label key={o.id} style={{ display: 'flex', gap: 8, alignItems: 'center', marginBottom: 2 }}>
            <input
              type={q.is_allow_multi_select ? 'checkbox' : 'radio'}
              name={id}
              checked={picked.includes(o.id)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                if (!q.is_allow_multi_select) props.onChange(on ? [o.id] : []);
                else props.onChange(on ? [...picked, o.id] : picked.filter((x) => x !== o.id));
              }}
            />
            {localized(o.label, lang, props.fallback)}
          </label>
        ))}
      </fieldset>
    );
  } else {
    const type = { email: 'email', phone: 'tel', number: 'number', date: 'date' }[q.type as string] ?? 'text';
    control = (
      <>
        <label htmlFor={id} style={{ display: 'block', fontWeight: 500, marginBottom: 4 }}>
          {label}
          {mark}
        </label>
        {q.type === 'long_text' ? (
          <textarea
            id={id}
            rows={3}
            style={field}
            placeholder={placeholder}
            value={text}
            onChange={(e) => props.onChange(e.currentTarget.value)}
            {...described}
          />
        ) : (
          <input
            id={id}
            type={type}
            style={field}
            placeholder={placeholder}
            value={text}
            onChange={(e) => props.onChange(e.currentTarget.value)}
            {...described}
          />
        )}
      </>
    );
  }
  return (
    <div style={{ marginBottom: 10 }}>
      {control}
      {props.error && (
        <div id={errorId} style={{ color: '#d33', fontSize: 12, marginTop: 2 }}>
          {props.error}
        </div>
      )}
    </div>
  );
}
