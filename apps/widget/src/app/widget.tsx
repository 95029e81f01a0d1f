// The opened widget: a dialog with the install's modes (instant callback, scheduled call, text us), the
// visitor's fields as the install asks for them, and the answers as they happen (countdown and call
// progress, the conversation's replies). Rendered by the app chunk in the host's shadow root, or inline
// by STNWidget.preview (no API: a submit shows the configured success response).

import type { TLeadFormPublic } from '@stn/contracts/lead-form-public';
import type {
  TWidgetCallbackAnswer,
  TWidgetCallStatus,
  TWidgetConfig,
  TWidgetConversation,
  TWidgetEvent,
  TWidgetLanguage,
  TWidgetMessage,
  TWidgetScheduleAnswer,
  TWidgetSlots,
  TWidgetTextAnswer,
  TWidgetVerifyAnswer,
} from '@stn/contracts/widget';
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { LeadKept } from '../lead/form.tsx';
import { lazyOnce } from '../shared.ts';
import { addCss, contrast, readable, widgetType } from '../triggers.ts';
import type { Mode } from '../types.ts';
import type { Api, ApiResult } from './api.ts';
import {
  callView,
  each,
  fill,
  formatInstant,
  groupSlots,
  message,
  previewSlots,
  readSettings,
  text,
  tokenVerified,
  ui,
  validEmail,
  validName,
} from './logic.ts';

/** The phone check (libphonenumber, a chunk of its own): loaded when the visitor reaches a phone field. */
const loadPhone = lazyOnce(() => import('@stn/contracts/widget-phone'));
type Lead = typeof import('../lead/index.tsx');
/** The lead form chunk (its own file, shared with embedded forms): loaded when the lead form is opened. */
const loadLead = lazyOnce(() => import('../lead/index.tsx'));

/** The shadow roots the lead form's CSS was added to. */
const leadStyled = new WeakSet<ShadowRoot>();

type Fields = {
  name: string;
  email: string;
  phone: string;
  message: string;
  gdpr: boolean;
  promotion: boolean;
  website: string;
};
const EMPTY: Fields = {
  name: '',
  email: '',
  phone: '',
  message: '',
  gdpr: false,
  promotion: false,
  website: '',
};
type Notice = { kind: 'error' | 'exception'; text: string } | null;
type CallState = { seconds: number; status: TWidgetCallStatus; callId: number | null };
const FIELD_OF: Record<string, keyof Fields> = {
  name: 'name',
  email: 'email',
  phone: 'phone',
  message: 'message',
  gdpr_consent: 'gdpr',
  promotion_consent: 'promotion',
};

let zone: string | undefined | null = null;
/** The visitor's time zone; asked only when a schedule needs it (Intl's first use costs a page a few ms). */
const visitorZone = (): string | undefined => {
  if (zone === null) {
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch {
      zone = undefined;
    }
  }
  return zone;
};

function session(k: string, v?: string | null): string | null {
  try {
    if (v === null) sessionStorage.removeItem(k);
    else if (v !== undefined) sessionStorage.setItem(k, v);
    return sessionStorage.getItem(k);
  } catch {
    return null;
  }
}

export type WidgetProps = {
  config: TWidgetConfig;
  /** null in the preview: nothing is sent. */
  api: Api | null;
  open: boolean;
  mode: Mode;
  /** Focus moves in and stays in (opened by the visitor); false for the auto popup. */
  modal: boolean;
  inline: boolean;
  onMode: (mode: Mode) => void;
  onClose: () => void;
  onLanguage: (lang: string) => void;
};

export function Widget(props: WidgetProps): JSX.Element | null {
  const { config, api, mode } = props;
  const s = readSettings(config.settings);
  const type = widgetType(config);
  const [lang, setLang] = useState<TWidgetLanguage>(s.language);
  // The preview is drawn again with the edit screen's language: the panel follows it.
  useEffect(() => setLang(s.language), [s.language]);
  const [brokenLogo, setBrokenLogo] = useState<string | null>(null);
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const [call, setCall] = useState<CallState | null>(null);
  const [closedSlots, setClosedSlots] = useState<string[] | null>(null);
  const [slots, setSlots] = useState<TWidgetSlots | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [scheduled, setScheduled] = useState<string | null>(null);
  const [thread, setThread] = useState<TWidgetMessage[] | null>(null);
  const [reply, setReply] = useState('');
  const [sent, setSent] = useState<Mode | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const followed = useRef<string | null>(null);
  const source = useRef<EventSource | null>(null);
  const tokenKey = `stn-token-${config.id}`;
  // The conversation shows the business's replies once the visitor entered the code texted to the phone
  // (ADR 048); until then only what they typed here.
  const [verified, setVerified] = useState(() => tokenVerified(session(tokenKey)));
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [codeNote, setCodeNote] = useState<'codeHint' | 'codeNotSent' | 'codeResent'>('codeHint');
  // The lead form (mode 'lead'): its chunk and the install's form, both loaded on its first showing; what
  // the visitor typed is kept while other modes are shown.
  const [leadChunk, setLeadChunk] = useState<Lead | null>(null);
  const [leadForm, setLeadForm] = useState<TLeadFormPublic | null>(null);
  const [leadFailed, setLeadFailed] = useState(false);
  const leadKept = useRef<LeadKept>({ answers: {}, step: 0, thanks: null });
  const id = (f: string) => `stn-${config.id}-${f}`;
  const t = (k: Parameters<typeof text>[2]) => text(s, lang, k);
  const u = (k: Parameters<typeof ui>[1]) => ui(lang, k);

  // The conversation of this visit (a reload keeps it): its messages, then its replies as they come.
  useEffect(() => {
    const token = api && session(tokenKey);
    if (!api || !token) return;
    api.get<TWidgetConversation>(`/v1/conversation?token=${encodeURIComponent(token)}`).then((r) => {
      if (r.ok) {
        setThread(r.data.messages);
        follow(token);
      } else if (r.status === 401 || r.status === 403 || r.status === 404) session(tokenKey, null);
    });
  }, []);

  // The schedule's times, once, when the schedule is first shown.
  useEffect(() => {
    if (!props.open || mode !== 'schedule' || slots) return;
    if (!api) {
      setSlots({ timezone: visitorZone() ?? 'UTC', slots: previewSlots(new Date()) });
      return;
    }
    api.get<TWidgetSlots>('/v1/slots?days=7').then((r) => {
      if (r.ok) setSlots(r.data);
      else failed(r);
    });
  }, [props.open, mode]);

  useEffect(() => {
    if (!props.open || mode !== 'lead' || (leadChunk && leadForm)) return;
    setLeadFailed(false);
    const formIn = leadForm
      ? Promise.resolve(true)
      : api
        ? api.get<TLeadFormPublic>('/v1/lead-form').then((r) => {
            if (r.ok) setLeadForm(r.data);
            return r.ok;
          })
        : Promise.resolve(false);
    Promise.all([loadLead(), formIn]).then(
      ([m, ok]) => {
        const root = dialog.current?.getRootNode() as ShadowRoot | undefined;
        if (root && root !== (document as unknown) && !leadStyled.has(root)) {
          leadStyled.add(root);
          addCss(root, m.LEAD_CSS);
        }
        setLeadChunk(m);
        if (!ok) setLeadFailed(true);
      },
      () => setLeadFailed(true),
    );
  }, [props.open, mode]);

  // The countdown of the instant callback, a second at a time.
  const ticking = call !== null && call.seconds > 0;
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(
      () => setCall((c) => (c ? { ...c, seconds: Math.max(0, c.seconds - 1) } : c)),
      1000,
    );
    return () => clearInterval(timer);
  }, [ticking]);

  // Focus: into the dialog when the visitor opened it; back is the loader's (it knows the trigger).
  useEffect(() => {
    if (!props.open || !props.modal || props.inline) return;
    const el = dialog.current;
    const first = el?.querySelector<HTMLElement>(
      '.body input:not([tabindex="-1"]),.body textarea,.body button',
    );
    (first ?? el?.querySelector<HTMLElement>('button'))?.focus();
  }, [props.open, props.modal, mode]);

  function follow(token: string) {
    if (!api || followed.current === token) return;
    followed.current = token;
    const onEvent = (e: TWidgetEvent) => {
      if (e.type === 'call')
        setCall((c) => (c && (c.callId === null || c.callId === e.call_id) ? { ...c, status: e.status } : c));
      else if (e.type === 'message') add(e.message);
    };
    let polling = false;
    const poll = () => {
      if (polling) return;
      polling = true;
      const timer = setInterval(async () => {
        const r = await api.get<TWidgetConversation>(`/v1/conversation?token=${encodeURIComponent(token)}`);
        if (r.ok) for (let i = 0; i < r.data.messages.length; i++) add(r.data.messages[i] as TWidgetMessage);
        else if (r.status === 401 || r.status === 403) clearInterval(timer);
      }, 5000);
    };
    if (typeof EventSource !== 'function') return poll();
    // A new token (the phone proven) replaces the stream of the one before.
    source.current?.close();
    const es = new EventSource(api.eventsUrl(token));
    source.current = es;
    const parse = (ev: MessageEvent) => {
      try {
        onEvent(JSON.parse(ev.data) as TWidgetEvent);
      } catch {
        // A malformed event is skipped.
      }
    };
    es.addEventListener('call', parse as EventListener);
    es.addEventListener('message', parse as EventListener);
    // The stream refused or gone for good (a proxy that buffers it): the conversation is polled instead.
    es.onerror = () => {
      if (es.readyState === 2) poll();
    };
  }

  function add(m: TWidgetMessage) {
    setThread((list) => {
      const next: TWidgetMessage[] = [];
      if (list) for (let i = 0; i < list.length; i++) next[i] = list[i] as TWidgetMessage;
      for (let i = 0; i < next.length; i++) if ((next[i] as TWidgetMessage).id === m.id) return list;
      next[next.length] = m;
      return next;
    });
  }

  function failed(r: Extract<ApiResult<unknown>, { ok: false }>) {
    if (r.status === 422) {
      const byField: Partial<Record<keyof Fields, string>> = {};
      let rest = '';
      for (const k in r.errors) {
        if (!Object.hasOwn(r.errors, k)) continue;
        const f = FIELD_OF[k];
        const msg = (r.errors[k] as string[])[0] ?? '';
        if (f) byField[f] = msg;
        else rest = rest || msg;
      }
      setErrors(byField);
      setNotice({ kind: 'error', text: rest ? `${t('error')} ${rest}` : t('error') });
    } else {
      setNotice({
        kind: 'exception',
        text: r.status && r.message ? `${t('exception')} ${r.message}` : t('exception'),
      });
    }
  }

  const set = (k: keyof Fields, v: string | boolean) => setFields((f) => ({ ...f, [k]: v }));

  /** The visitor's fields checked as the server will; the phone in E.164, or null with the errors shown. */
  async function check(withMessage: boolean): Promise<Record<string, unknown> | null> {
    const e: Partial<Record<keyof Fields, string>> = {};
    const name = fields.name.trim();
    const email = fields.email.trim();
    if (s.input.name) {
      if (!name && s.input.nameRequired) e.name = message(lang, 'validation.required');
      else if (name && s.input.nameValidation && !validName(name))
        e.name = message(lang, 'validation.invalid');
    }
    if (s.input.email) {
      if (!email && s.input.emailRequired) e.email = message(lang, 'validation.required');
      else if (email && !validEmail(email)) e.email = message(lang, 'validation.email');
    }
    let e164: string | null = null;
    if (!fields.phone.trim()) e.phone = message(lang, 'validation.required');
    else {
      try {
        e164 = (await loadPhone()).widgetPhoneToE164(fields.phone);
      } catch {
        e164 = fields.phone.trim(); // the check could not load: the server checks it
      }
      if (!e164) e.phone = message(lang, 'validation.phone');
    }
    if (withMessage && !fields.message.trim()) e.message = message(lang, 'validation.required');
    if (s.gdpr && !fields.gdpr) e.gdpr = message(lang, 'validation.required');
    setErrors(e);
    for (const k in e) {
      if (!Object.hasOwn(e, k)) continue;
      setNotice({ kind: 'error', text: t('error') });
      // The first field in error takes the focus, so a keyboard or screen reader user lands on it.
      setTimeout(() => dialog.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return null;
    }
    setNotice(null);
    const body: Record<string, unknown> = {
      phone: e164,
      gdpr_consent: fields.gdpr,
      promotion_consent: fields.promotion,
      website: fields.website,
    };
    if (s.input.name && name) body.name = name;
    if (s.input.email && email) body.email = email;
    if (withMessage) body.message = fields.message.trim();
    return body;
  }

  function redirect(afterMs: number) {
    const url = s.response.redirect;
    if (!url || !api) return;
    if (s.response.redirectBlank) window.open(url, '_blank', 'noopener');
    else setTimeout(() => window.location.assign(url), afterMs);
  }

  async function submit(ev: Event) {
    ev.preventDefault();
    if (busy) return;
    if (!api) {
      // The preview: the configured success response, nothing sent.
      if (mode === 'call') setCall({ seconds: s.callbackSeconds, status: 'finding', callId: null });
      if (mode === 'schedule') setScheduled(chosen ?? previewSlots(new Date())[0] ?? null);
      if (mode === 'text')
        setThread([
          {
            id: 1,
            direction: 'in',
            body: fields.message || t('MessageInputLabel'),
            media: [],
            status: 'sent',
            created_at: new Date().toISOString(),
          },
        ]);
      setSent(mode);
      return;
    }
    if (mode === 'schedule' && !chosen) {
      setNotice({ kind: 'error', text: u('pickTime') });
      return;
    }
    const body = await check(mode === 'text');
    if (!body) return;
    setBusy(true);
    try {
      if (mode === 'call') {
        const r = await api.post<TWidgetCallbackAnswer>('/v1/callback', body);
        if (!r.ok) return failed(r);
        if (r.data.status === 'closed') {
          setClosedSlots(r.data.next_slots);
          return;
        }
        setCall({ seconds: r.data.callback_seconds, status: 'finding', callId: r.data.call_id });
        setSent('call');
        if (r.data.token) follow(r.data.token);
        redirect(r.data.callback_seconds * 1000);
      } else if (mode === 'schedule') {
        await schedule(body, chosen as string);
      } else {
        const r = await api.post<TWidgetTextAnswer>('/v1/text', body);
        if (!r.ok) return failed(r);
        session(tokenKey, r.data.token);
        setVerified(r.data.verified);
        setCodeNote(r.data.code_sent ? 'codeHint' : 'codeNotSent');
        setThread([r.data.message]);
        setSent('text');
        follow(r.data.token);
        redirect(3000);
      }
    } finally {
      setBusy(false);
    }
  }

  async function schedule(body: Record<string, unknown>, at: string) {
    if (!api) return;
    const r = await api.post<TWidgetScheduleAnswer>('/v1/schedule', {
      ...body,
      scheduled_at: at,
      timezone: visitorZone(),
    });
    if (!r.ok) return failed(r);
    setScheduled(r.data.scheduled_for || at);
    setSent('schedule');
    redirect(3000);
  }

  /** A time picked among the next times offered after a callback asked while closed. */
  async function scheduleClosed(at: string) {
    if (busy) return;
    if (!api) {
      setScheduled(at);
      setSent('call');
      return;
    }
    const body = await check(false);
    if (!body) return;
    setBusy(true);
    try {
      await schedule(body, at);
      setClosedSlots(null);
    } finally {
      setBusy(false);
    }
  }

  async function sendReply(ev: Event) {
    ev.preventDefault();
    const token = session(tokenKey);
    const body = reply.trim();
    if (!body) {
      setErrors({ message: message(lang, 'validation.required') });
      return;
    }
    if (!api || !token || busy) return;
    setBusy(true);
    const r = await api.post<TWidgetMessage>('/v1/text/reply', { token, message: body });
    setBusy(false);
    if (!r.ok) return failed(r);
    setErrors({});
    setNotice(null);
    setReply('');
    add(r.data);
  }

  /** The code texted to the phone: the token then shows the business's replies. */
  async function sendCode(ev: Event) {
    ev.preventDefault();
    const token = session(tokenKey);
    if (!code.trim()) {
      setCodeError(message(lang, 'validation.required'));
      return;
    }
    if (!api || !token || busy) return;
    setBusy(true);
    try {
      const r = await api.post<TWidgetVerifyAnswer>('/v1/text/verify', { token, code: code.trim() });
      if (!r.ok) {
        if (r.status === 422) setCodeError(r.errors.code?.[0] ?? r.message ?? t('error'));
        else setCodeError(r.message || t('exception'));
        return;
      }
      session(tokenKey, r.data.token);
      setCodeError(null);
      setCode('');
      const all = await api.get<TWidgetConversation>(
        `/v1/conversation?token=${encodeURIComponent(r.data.token)}`,
      );
      if (all.ok) setThread(all.data.messages);
      setVerified(true);
      follow(r.data.token);
    } finally {
      setBusy(false);
    }
  }

  async function resendCode() {
    const token = session(tokenKey);
    if (!api || !token || busy) return;
    setBusy(true);
    const r = await api.post<{ code_sent: boolean }>('/v1/text/code', { token });
    setBusy(false);
    if (r.ok) {
      setCodeError(null);
      setCodeNote('codeResent');
    } else setCodeError(r.message || t('exception'));
  }

  function onKeyDown(ev: KeyboardEvent) {
    if (ev.key === 'Escape') {
      ev.stopPropagation();
      props.onClose();
      return;
    }
    if (ev.key !== 'Tab' || !props.modal || props.inline || !dialog.current) return;
    // Focus stays inside the open dialog.
    const all = dialog.current.querySelectorAll<HTMLElement>(
      'button:not([disabled]),input:not([tabindex="-1"]):not([disabled]),select,textarea,a[href]',
    );
    const first = all[0];
    const last = all[all.length - 1];
    const active = (dialog.current.getRootNode() as ShadowRoot).activeElement;
    if (!first || !last) return;
    if (ev.shiftKey && (active === first || !dialog.current.contains(active))) {
      ev.preventDefault();
      last.focus();
    } else if (!ev.shiftKey && (active === last || !dialog.current.contains(active))) {
      ev.preventDefault();
      first.focus();
    }
  }

  if (!props.open) return null;

  const vars = {
    // The panel's own text: dark on a light background, white on a dark one.
    '--fg': contrast(s.styling.background, '#222222') >= 4.5 ? '#222222' : '#FFFFFF',
    '--p': readable(s.primary, s.primaryText),
    '--pt': s.primaryText,
    '--bg': s.styling.background,
    '--bd': s.styling.border,
    '--rd': `${s.styling.radius}px`,
    '--mw': `${s.styling.maxWidth}px`,
    '--pd': `${s.styling.padding}px`,
    '--ib': s.input.background,
    '--ic': s.input.color,
    '--ibd': s.input.border,
    '--ir': `${s.input.radius}px`,
    '--ip': `${s.input.padding}px`,
    // White text on the answer's box: a colour too light for it is deepened, as the primary is.
    '--ok': readable(s.response.success, '#FFFFFF'),
    '--ko': readable(s.response.error, '#FFFFFF'),
    // A field's error in the error colour, deepened or lightened until the panel's background reads it.
    '--fe': readable(s.response.error, s.styling.background),
    '--rf': `${s.response.fontSize}px`,
    '--ra': s.response.align,
    '--rp': `${s.response.padding}px`,
    '--x': `${s.marginX}px`,
    '--y': `${s.marginY}px`,
  } as unknown as JSX.CSSProperties;

  /** A field's id, test id and accessibility state, from its name and its error. */
  const common = (k: keyof Fields, required: boolean) => ({
    id: id(k),
    'data-testid': `stn-${k}`,
    'aria-invalid': (errors[k] ? 'true' : 'false') as 'true' | 'false',
    'aria-describedby': errors[k] ? id(`${k}-e`) : undefined,
    'aria-required': required ? ('true' as const) : undefined,
  });
  const fieldError = (k: keyof Fields) =>
    errors[k] ? (
      <p class="fe" id={id(`${k}-e`)} data-testid={`stn-${k}-error`}>
        {errors[k]}
      </p>
    ) : null;

  const field = (
    k: keyof Fields,
    label: string,
    required: boolean,
    input: (common: Record<string, unknown>) => ComponentChildren,
  ) => (
    <div class="f">
      <label for={id(k)}>
        {label}
        {required ? <span class="req"> ({u('required')})</span> : null}
      </label>
      {input(common(k, required))}
      {fieldError(k)}
    </div>
  );

  /** A one-line visitor field whose autocomplete hint is its own name. */
  const textField = (
    k: 'name' | 'email',
    label: string,
    required: boolean,
    type: string,
    maxLength: number,
  ) =>
    field(k, label, required, (c) => (
      <input
        {...c}
        type={type}
        autocomplete={k}
        maxLength={maxLength}
        value={fields[k]}
        onInput={(e) => set(k, e.currentTarget.value)}
      />
    ));

  const visitorFields = (withMessage: boolean) => (
    <>
      {s.input.name ? textField('name', t('NameLabel'), s.input.nameRequired, 'text', 100) : null}
      {s.input.email ? textField('email', t('EmailLabel'), s.input.emailRequired, 'email', 191) : null}
      {field('phone', t('PhoneLabel'), true, (c) => (
        <input
          {...c}
          type="tel"
          autocomplete="tel"
          maxLength={40}
          value={fields.phone}
          onFocus={() => void loadPhone().catch(() => undefined)}
          onInput={(e) => set('phone', e.currentTarget.value)}
        />
      ))}
      {withMessage
        ? field('message', t('MessageInputLabel'), true, (c) => (
            <textarea
              {...c}
              rows={3}
              maxLength={1600}
              value={fields.message}
              onInput={(e) => set('message', e.currentTarget.value)}
            />
          ))
        : null}
      {s.gdpr ? consent('gdpr', t('gdpr'), true) : null}
      {s.promotion ? consent('promotion', t('promotion'), false) : null}
      {/* A field people never see nor reach; robots fill it and their request is ignored. */}
      <div class="hp" aria-hidden="true">
        <label>
          Website
          <input
            type="text"
            name="website"
            tabIndex={-1}
            autocomplete="off"
            value={fields.website}
            onInput={(e) => set('website', e.currentTarget.value)}
          />
        </label>
      </div>
    </>
  );

  function consent(k: 'gdpr' | 'promotion', label: string, required: boolean) {
    return (
      <div class="f c">
        <input
          type="checkbox"
          {...common(k, required)}
          checked={fields[k]}
          onChange={(e) => set(k, e.currentTarget.checked)}
        />
        <label for={id(k)}>{label}</label>
        {fieldError(k)}
      </div>
    );
  }

  const slotButtons = (list: string[], onPick: (at: string) => void, selected: string | null) => {
    const days = groupSlots(list, lang, visitorZone());
    if (!days.length) return <p class="hint">{u('noTimes')}</p>;
    return (
      <div class="days">
        <p class="hint">{fill(u('timesIn'), { zone: visitorZone() ?? '' })}</p>
        {each(days, (d) => (
          <fieldset class="day" key={d.key}>
            <legend>{d.label}</legend>
            {each(d.slots, (sl) => (
              <button
                type="button"
                key={sl.at}
                class="stn-slot"
                data-testid="stn-slot"
                data-at={sl.at}
                aria-pressed={selected === sl.at ? 'true' : 'false'}
                disabled={busy}
                onClick={() => onPick(sl.at)}
              >
                {sl.label}
              </button>
            ))}
          </fieldset>
        ))}
      </div>
    );
  };

  const noticeBox = notice ? (
    <p class={'resp ko'} data-testid="stn-error">
      {notice.text}
    </p>
  ) : null;

  const messages = (list: TWidgetMessage[]) => (
    <ol class="thread" data-testid="stn-messages" aria-live="polite">
      {each(list, (m) => (
        <li
          key={m.id}
          class={m.direction === 'in' ? 'me' : 'them'}
          data-testid={`stn-message-${m.direction}`}
        >
          <span class="sr">{m.direction === 'in' ? u('you') : config.business_name || ''}: </span>
          {m.body}
        </li>
      ))}
    </ol>
  );

  let body: ComponentChildren;
  if (mode === 'lead') {
    const LeadForm = leadChunk?.LeadForm;
    body =
      LeadForm && leadForm ? (
        <LeadForm
          form={leadForm}
          lang={lang}
          send={api ? (b) => api.post('/v1/lead', b) : null}
          showTitle
          level={3}
          idp={id('lead')}
          autoFocus={props.modal && !props.inline}
          kept={leadKept.current}
        />
      ) : !api ? (
        // The preview calls no API: the label of the form it would show.
        <p class="hint">{t('LeadLabel')}</p>
      ) : leadFailed ? (
        <p class="resp ko" data-testid="stn-error">
          {t('exception')}
        </p>
      ) : (
        <p class="hint" aria-busy="true">
          …
        </p>
      );
  } else if (mode === 'call' && call) {
    const view = callView(call);
    body = (
      <div class="done">
        {view.title ? <p class="resp ok">{t('success')}</p> : null}
        {view.countdown ? (
          <p class="big" data-testid="stn-countdown" role="timer" aria-atomic="true">
            {view.countdown === 'seconds' ? fill(t('call'), { seconds: call.seconds }) : u('soon')}
          </p>
        ) : null}
        <p
          class={view.tone === 'ko' ? 'resp ko' : undefined}
          data-testid="stn-status"
          data-status={call.status}
          role="status"
        >
          {u(call.status)}
        </p>
      </div>
    );
  } else if (mode === 'call' && closedSlots) {
    body = (
      <div>
        <p class="resp ko" role="status">
          {t('closed')}
        </p>
        {slotButtons(closedSlots, scheduleClosed, null)}
      </div>
    );
  } else if (scheduled && (mode === 'schedule' || mode === 'call')) {
    body = (
      <div class="done" role="status">
        <p class="resp ok">{t('success')}</p>
        <p>{fill(u('scheduledFor'), { when: formatInstant(scheduled, lang, visitorZone()) })}</p>
      </div>
    );
  } else if (mode === 'text' && thread) {
    body = (
      <div>
        {sent === 'text' ? (
          <p class="resp ok" role="status">
            {t('success')} {t('sms')}
          </p>
        ) : null}
        {messages(thread)}
        {verified || !api ? null : (
          <form class="code" onSubmit={sendCode} noValidate data-testid="stn-code-form">
            <p class="hint" data-testid="stn-code-note">
              {u(codeNote)}
            </p>
            <div class="f">
              <label for={id('code')}>{u('codeLabel')}</label>
              <input
                id={id('code')}
                data-testid="stn-code"
                type="text"
                inputMode="numeric"
                autocomplete="one-time-code"
                maxLength={12}
                value={code}
                aria-invalid={codeError ? 'true' : 'false'}
                aria-describedby={codeError ? id('code-e') : undefined}
                onInput={(e) => setCode(e.currentTarget.value)}
              />
              {codeError ? (
                <p class="fe" id={id('code-e')} data-testid="stn-code-error">
                  {codeError}
                </p>
              ) : null}
            </div>
            <button type="submit" class="go" data-testid="stn-code-submit" disabled={busy}>
              {u('codeSubmit')}
            </button>
            <button
              type="button"
              class="link"
              data-testid="stn-code-resend"
              disabled={busy}
              onClick={resendCode}
            >
              {u('codeResend')}
            </button>
          </form>
        )}
        <form class="reply" onSubmit={sendReply} noValidate>
          <div class="f">
            <label for={id('message')}>{u('reply')}</label>
            <textarea
              id={id('message')}
              data-testid="stn-message"
              rows={2}
              maxLength={1600}
              value={reply}
              aria-invalid={errors.message ? 'true' : 'false'}
              aria-describedby={errors.message ? id('message-e') : undefined}
              onInput={(e) => setReply(e.currentTarget.value)}
            />
            {errors.message ? (
              <p class="fe" id={id('message-e')}>
                {errors.message}
              </p>
            ) : null}
          </div>
          <button type="submit" class="go" data-testid="stn-submit" disabled={busy}>
            {t('SubmitText')}
          </button>
        </form>
      </div>
    );
  } else {
    body = (
      <form onSubmit={submit} noValidate>
        {mode === 'schedule' && !props.config.open_now && type !== 2 ? (
          <p class="hint">{t('closed')}</p>
        ) : null}
        {visitorFields(mode === 'text')}
        {mode === 'schedule' ? (
          <div class="f">
            <p class="lbl">{u('pickTime')}</p>
            {slots ? (
              slotButtons(slots.slots, setChosen, chosen)
            ) : (
              <p class="hint" aria-busy="true">
                …
              </p>
            )}
          </div>
        ) : null}
        <button
          type="submit"
          class="go"
          data-testid="stn-submit"
          disabled={busy}
          aria-busy={busy ? 'true' : 'false'}
        >
          {mode === 'call' ? t('SubmitCall') : mode === 'text' ? t('SubmitText') : t('SubmitSchedule')}
        </button>
        {mode === 'call' ? (
          <button type="button" class="link" onClick={() => props.onMode('schedule')}>
            {t('ScheduleLabel')}
          </button>
        ) : null}
      </form>
    );
  }

  const tabs: { mode: Mode; label: string }[] = [];
  if (type !== 2)
    tabs[tabs.length] =
      config.open_now === false
        ? { mode: 'schedule', label: t('ScheduleLabel') }
        : { mode: 'call', label: t('CallLabel') };
  if (type !== 1) tabs[tabs.length] = { mode: 'text', label: t('MessageLabel') };
  if (config.lead_form_id) tabs[tabs.length] = { mode: 'lead', label: t('LeadLabel') };
  // A logo whose file is gone is left out, not drawn as a broken image.
  const logo = config.logo && config.logo !== brokenLogo ? config.logo : null;

  return (
    <div
      ref={dialog}
      class={`panel${props.inline ? ' inline' : ''}${s.left ? ' left' : ''}`}
      style={vars}
      role="dialog"
      aria-modal={props.modal && !props.inline ? 'true' : 'false'}
      aria-labelledby={id('title')}
      data-testid="stn-panel"
      onKeyDown={onKeyDown}
    >
      <div class="head">
        {logo ? (
          <img class="logo" src={logo} alt="" data-testid="stn-logo" onError={() => setBrokenLogo(logo)} />
        ) : null}
        <h2 id={id('title')}>{t('title')}</h2>
        {s.languageList.length > 1 ? (
          <select
            aria-label={u('language')}
            data-testid="stn-language"
            value={lang}
            onChange={(e) => {
              const next = e.currentTarget.value as TWidgetLanguage;
              setLang(next);
              setErrors({});
              setNotice(null);
              props.onLanguage(next);
            }}
          >
            {each(s.languageList, (l) => (
              <option key={l} value={l}>
                {l === 'en' ? 'English' : l === 'es' ? 'Español' : 'Português'}
              </option>
            ))}
          </select>
        ) : null}
        <button
          type="button"
          class="x"
          data-testid="stn-close"
          aria-label={u('close')}
          onClick={props.onClose}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </div>
      {tabs.length > 1 ? (
        <div class="tabs">
          {each(tabs, (tb) => (
            <button
              type="button"
              key={tb.mode}
              aria-pressed={
                mode === tb.mode || (tb.mode === 'call' && mode === 'schedule') ? 'true' : 'false'
              }
              onClick={() => {
                setNotice(null);
                setErrors({});
                props.onMode(tb.mode);
              }}
            >
              {tb.label}
            </button>
          ))}
        </div>
      ) : null}
      <div class="body">
        {body}
        <div aria-live="assertive">{noticeBox}</div>
      </div>
    </div>
  );
}
