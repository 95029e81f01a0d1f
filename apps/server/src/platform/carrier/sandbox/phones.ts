import { isE164 } from '../carrier.ts';
import { isLive, type SandboxCall, SandboxPhoneError, type TwilioSandbox } from './sandbox.ts';

/**
 * Simulated phones. Any E.164 number the sandbox calls (or a test names) is a phone, created on first
 * use: it rings, answers as a person or as its voicemail, presses digits, hangs up, rejects, calls an
 * account's number and sends texts. Tests and the Sandbox Phones screen drive them through this API.
 */

export type PhoneState = 'idle' | 'ringing' | 'in-call' | 'voicemail';

export type PhoneText = {
  direction: 'in' | 'out';
  other: string;
  body: string;
  at: string;
  /** The images of an MMS the phone received (their URLs). */
  media?: string[];
  /**
   * The account number the text went to or came from, as it was then (account and number sid): a number
   * released and bought by another account is another sid, so its later holder is told apart.
   */
  via?: { accountSid: string; numberSid: string };
};

/** A call as a phone's card shows it. */
export type PhoneCallView = {
  sid: string;
  from: string;
  to: string;
  status: string;
  bridged_with: string | null;
  heard: string[];
  gathering: boolean;
};

/** A phone as the Sandbox Phones screen shows it (ZSandboxPhone of the contracts, without its label). */
export type PhoneView = {
  number: string;
  state: PhoneState;
  call: PhoneCallView | null;
  /**
   * The newest ended call that said or played something, while no call is live: what a short call (an
   * automation's message) said stays readable after it hung up.
   */
  last_call: PhoneCallView | null;
  texts: PhoneText[];
};

/**
 * Which calls a viewer of the phones may see and act on (the Sandbox Phones of one business: the calls of
 * its agency's sandbox account that involve its numbers). Without it, every call.
 */
export type CallFilter = (call: SandboxCall) => boolean;

export type PhoneSettings = {
  /** Answer every call at once (after answerAfterMs), as a person or as the voicemail. */
  autoAnswer?: 'human' | 'machine' | null;
  /** Press these digits as soon as a call asks for digits. */
  autoPress?: string | null;
  answerAfterMs?: number;
};

type Phone = {
  number: string;
  calls: string[];
  texts: PhoneText[];
  autoAnswer: 'human' | 'machine' | null;
  autoPress: string | null;
  answerAfterMs: number;
};

const MAX_CALLS_KEPT = 50;
const MAX_TEXTS_KEPT = 100;

export class SandboxPhones {
  private phones = new Map<string, Phone>();

  constructor(private readonly sandbox: TwilioSandbox) {}

  private phone(number: string): Phone {
    let p = this.phones.get(number);
    if (!p) {
      if (!isE164(number)) throw new SandboxPhoneError('not-a-number', `${number} is not an E.164 number`);
      p = { number, calls: [], texts: [], autoAnswer: null, autoPress: null, answerAfterMs: 0 };
      this.phones.set(number, p);
    }
    return p;
  }

  private callsOf(p: Phone, only?: CallFilter): SandboxCall[] {
    return p.calls
      .map((sid) => this.sandbox.calls.get(sid))
      .filter((c): c is SandboxCall => !!c && (!only || only(c)));
  }

  /** The call the phone shows: the newest one ringing or in progress (of those the viewer may see). */
  private current(p: Phone, only?: CallFilter): SandboxCall | null {
    const calls = this.callsOf(p, only);
    for (let i = calls.length - 1; i >= 0; i--) {
      const c = calls[i];
      if (c && (c.status === 'ringing' || c.status === 'in-progress')) return c;
    }
    return null;
  }

  private callView(c: SandboxCall): PhoneCallView {
    const partner = c.bridgedWith ? this.sandbox.calls.get(c.bridgedWith) : undefined;
    return {
      sid: c.sid,
      from: c.from,
      to: c.to,
      status: c.status,
      bridged_with: partner ? partner.phone : null,
      heard: [...c.heard],
      gathering: c.gather !== null,
    };
  }

  private view(p: Phone, only?: CallFilter): PhoneView {
    const c = this.current(p, only);
    let state: PhoneState = 'idle';
    if (c) {
      if (c.status === 'ringing' && c.direction !== 'inbound') state = 'ringing';
      else state = c.voicemail ? 'voicemail' : 'in-call';
    }
    const last = c ? undefined : this.callsOf(p, only).findLast((x) => !isLive(x) && x.heard.length > 0);
    return {
      number: p.number,
      state,
      call: c ? this.callView(c) : null,
      last_call: last ? this.callView(last) : null,
      texts: p.texts.map((t) => ({ ...t })),
    };
  }

  list(only?: CallFilter): PhoneView[] {
    return [...this.phones.values()].map((p) => this.view(p, only));
  }

  get(number: string, only?: CallFilter): PhoneView {
    return this.view(this.phone(number), only);
  }

  /** The call sids this phone has had, newest last. */
  callSids(number: string): string[] {
    return [...this.phone(number).calls];
  }

  configure(number: string, settings: PhoneSettings): PhoneView {
    const p = this.phone(number);
    if (settings.autoAnswer !== undefined) p.autoAnswer = settings.autoAnswer;
    if (settings.autoPress !== undefined) p.autoPress = settings.autoPress;
    if (settings.answerAfterMs !== undefined) p.answerAfterMs = Math.max(0, settings.answerAfterMs);
    return this.view(p);
  }

  /**
   * Picks up the newest ringing call; 'machine' lets the voicemail take it. `greetingTones`: the voicemail's
   * greeting has tones that register as these digits (a voicemail that "presses" whatever it is asked).
   */
  answer(
    number: string,
    opts: { as?: 'human' | 'machine'; only?: CallFilter; greetingTones?: string } = {},
  ): string {
    const p = this.phone(number);
    const ringing = this.callsOf(p, opts.only)
      .filter((c) => c.status === 'ringing' && c.direction !== 'inbound')
      .pop();
    if (!ringing) throw new SandboxPhoneError('no-ringing-call', `${number} has no ringing call`);
    this.sandbox.spawn(() => this.sandbox.answerCall(ringing, opts.as ?? 'human', opts.greetingTones));
    return ringing.sid;
  }

  /** Digits into the call's current <Gather> (or a key that ends a <Record>). */
  press(number: string, digits: string, only?: CallFilter): string {
    const p = this.phone(number);
    const c = this.current(p, only);
    if (c?.status !== 'in-progress') throw new SandboxPhoneError('no-call', `${number} is not in a call`);
    this.sandbox.twiml.press(c, digits);
    return c.sid;
  }

  /** Ends the call in progress; a ringing call left unanswered this way is declined (no-answer). */
  hangUp(number: string, only?: CallFilter): string {
    const p = this.phone(number);
    const c = this.current(p, only);
    if (!c) throw new SandboxPhoneError('no-call', `${number} has no call to hang up`);
    this.sandbox.spawn(() =>
      this.sandbox.endCall(
        c,
        c.status === 'ringing' && c.direction !== 'inbound' ? 'no-answer' : 'completed',
      ),
    );
    return c.sid;
  }

  /** Declines the newest ringing call: busy. */
  reject(number: string, only?: CallFilter): string {
    const p = this.phone(number);
    const ringing = this.callsOf(p, only)
      .filter((c) => c.status === 'ringing' && c.direction !== 'inbound')
      .pop();
    if (!ringing) throw new SandboxPhoneError('no-ringing-call', `${number} has no ringing call`);
    this.sandbox.spawn(() => this.sandbox.endCall(ringing, 'busy'));
    return ringing.sid;
  }

  /** The phone calls an account's incoming number: an inbound call; its sid. */
  dial(from: string, to: string): string {
    this.phone(from);
    if (!isE164(to)) throw new SandboxPhoneError('not-a-number', `${to} is not an E.164 number`);
    return this.sandbox.inboundCall(from, to).sid;
  }

  /** The phone texts a number: an account's number gets its SMS webhook, another phone gets the text. */
  sendText(from: string, to: string, body: string): string | null {
    const p = this.phone(from);
    if (!isE164(to)) throw new SandboxPhoneError('not-a-number', `${to} is not an E.164 number`);
    const number = this.sandbox.findIncomingNumber(to);
    this.push(p, {
      direction: 'out',
      other: to,
      body,
      at: this.at(),
      ...(number ? { via: { accountSid: number.accountSid, numberSid: number.sid } } : {}),
    });
    const message = this.sandbox.inboundText(from, to, body);
    if (!message && !this.sandbox.findIncomingNumber(to)) this.receiveText(to, from, body);
    this.sandbox.changed();
    return message?.sid ?? null;
  }

  // ---- Called by the sandbox ----------------------------------------------------------------------

  /** A new call leg involves this phone. */
  attach(call: SandboxCall): void {
    const p = this.phone(call.phone);
    p.calls.push(call.sid);
    if (p.calls.length > MAX_CALLS_KEPT) {
      // Forget the oldest finished calls.
      const keep = p.calls.filter((sid, i) => {
        const c = this.sandbox.calls.get(sid);
        return i >= p.calls.length - MAX_CALLS_KEPT || (c && isLive(c));
      });
      p.calls = keep;
    }
  }

  /** The call rings on its phone: a phone set to answer at once does. */
  ringing(call: SandboxCall): void {
    const p = this.phone(call.phone);
    if (!p.autoAnswer) return;
    const as = p.autoAnswer;
    this.sandbox.clock.schedule(p.answerAfterMs, () => {
      this.sandbox.spawn(() => this.sandbox.answerCall(call, as));
    });
  }

  /**
   * The call asks for digits: a phone set to press at once does; a voicemail presses only what its
   * greeting's tones register as.
   */
  gathering(call: SandboxCall): void {
    const p = this.phone(call.phone);
    const digits = call.voicemail ? call.greetingTones : p.autoPress;
    if (!digits) return;
    this.sandbox.clock.schedule(0, () => {
      if (call.gather) this.sandbox.twiml.press(call, digits);
    });
  }

  ended(_call: SandboxCall): void {
    this.sandbox.changed();
  }

  receiveText(to: string, from: string, body: string, media: string[] = [], via?: PhoneText['via']): void {
    if (!isE164(to)) return;
    this.push(this.phone(to), {
      direction: 'in',
      other: from,
      body,
      at: this.at(),
      ...(media.length ? { media } : {}),
      ...(via ? { via } : {}),
    });
    this.sandbox.changed();
  }

  private push(p: Phone, text: PhoneText) {
    p.texts.push(text);
    if (p.texts.length > MAX_TEXTS_KEPT) p.texts.splice(0, p.texts.length - MAX_TEXTS_KEPT);
  }

  private at(): string {
    return new Date(this.sandbox.clock.now()).toISOString();
  }
}
