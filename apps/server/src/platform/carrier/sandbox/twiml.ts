import { type CallEvent, isE164 } from '../carrier.ts';
import { isLive, type SandboxCall, type TwilioSandbox } from './sandbox.ts';
import { elementsOf, parseXml, textOf, type XmlElement, XmlError } from './xml.ts';

/**
 * The TwiML interpreter: fetches a call's document (signed, with Twilio's voice parameters), parses it
 * and plays its verbs in order on the sandbox clock: Say, Play, Pause, Gather, Dial (up to 10 Numbers
 * ringing at once, the `<Number url>` whisper before the bridge), Record, Redirect, Hangup, Reject.
 * Every wait is on the call: when the call ends or its TwiML is replaced, the waits resolve at once and
 * the old document stops at its next step.
 */

export type GatherState = {
  digits: string;
  numDigits: number | null;
  finishOnKey: string;
  timeout: number;
  done: boolean;
  timer: number;
  finish(digits: string | null): void;
  arm(): void;
};

export type RecordWait = { finishOnKey: string; finish(reason: string): void };

type NumberSpec = {
  url: string | null;
  method: 'GET' | 'POST';
};

export type DialState = {
  parent: SandboxCall;
  children: SandboxCall[];
  specs: Map<string, NumberSpec>;
  /** Seconds a bridged call may last (timeLimit, 4 hours by default). */
  timeLimit: number;
  winner: SandboxCall | null;
  bridgedAt: number | null;
  bridgeEndedAt: number | null;
  parentGone: boolean;
  done: boolean;
  finish(): void;
};

type Fetch = { url: string; method: 'GET' | 'POST'; params?: Record<string, string> } | { twiml: string };
type Doc = { url: string; verbs: XmlElement[] };
type Outcome = 'end' | 'hangup' | 'gone';
type Step = 'continue' | 'hangup' | 'gone' | Fetch;

const method = (v: string | undefined): 'GET' | 'POST' => (v?.toUpperCase() === 'GET' ? 'GET' : 'POST');

function int(v: string | undefined, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const n = v === undefined ? Number.NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

function resolveUrl(ref: string | undefined, base: string): string | null {
  if (ref === undefined || ref === '') return base || null;
  try {
    return new URL(ref, base || undefined).toString();
  } catch {
    return null;
  }
}

export class TwimlInterpreter {
  constructor(private readonly sb: TwilioSandbox) {}

  // ---- Entry points ---------------------------------------------------------------------------

  /** Runs the call's TwiML from its start (answered outbound call, dialed inbound call); hangs up at the end. */
  async start(call: SandboxCall): Promise<void> {
    if (!isLive(call)) return;
    if (call.program) {
      const generation = call.generation;
      await call.program(call);
      if (generation === call.generation && isLive(call)) await this.sb.endCall(call, 'completed');
      return;
    }
    const first: Fetch = call.twiml !== null ? { twiml: call.twiml } : { url: call.url, method: call.method };
    const outcome = await this.run(call, first);
    if (outcome !== 'gone') await this.sb.endCall(call, 'completed');
  }

  /** Calls/{sid} update with a new Url or Twiml: the running document stops, the new one starts. */
  async redirect(call: SandboxCall): Promise<void> {
    this.sb.interrupt(call);
    if (call.dial) this.parentEnded(call.dial, false);
    call.gather = null;
    await this.start(call);
  }

  /** Digits from the phone: into the current <Gather>, or a key that ends a <Record>. */
  press(call: SandboxCall, digits: string): void {
    for (const key of digits) {
      const g = call.gather;
      if (g && !g.done) {
        if (g.finishOnKey && key === g.finishOnKey) {
          g.finish(g.digits);
          continue;
        }
        g.digits += key;
        if (g.numDigits !== null && g.digits.length >= g.numDigits) g.finish(g.digits);
        else g.arm();
        continue;
      }
      const r = call.recording;
      if (r?.finishOnKey.includes(key)) r.finish(key);
    }
    this.sb.changed();
  }

  // ---- Documents --------------------------------------------------------------------------------

  private async fetch(call: SandboxCall, f: Fetch): Promise<Doc | null> {
    let xml: string;
    let url = '';
    if ('twiml' in f) {
      xml = f.twiml;
    } else {
      url = f.url;
      const d = await this.sb.hook(
        f.method,
        f.url,
        { ...this.sb.callParams(call), ...f.params },
        call.accountSid,
      );
      if (d.status === null || d.status < 200 || d.status >= 300 || d.responseBody === null) {
        this.sb.fail(new Error(`sandbox: ${f.method} ${f.url} answered ${d.status ?? d.error}`));
        call.heard.push('[application error]');
        return null;
      }
      xml = d.responseBody;
    }
    try {
      const root = parseXml(xml);
      if (root.name !== 'Response') throw new XmlError(`root element is <${root.name}>, not <Response>`);
      return { url, verbs: elementsOf(root) };
    } catch (error) {
      this.sb.fail(error);
      call.heard.push('[application error]');
      return null;
    }
  }

  /** Plays documents from `first` until one ends, hangs up, or the call moves on. */
  private async run(call: SandboxCall, first: Fetch): Promise<Outcome> {
    const generation = call.generation;
    const gone = () => generation !== call.generation || !isLive(call);
    let next: Fetch | null = first;
    for (let hops = 0; next; hops++) {
      if (hops > 100) return 'hangup';
      const doc = await this.fetch(call, next);
      if (gone()) return 'gone';
      if (!doc) return 'hangup';
      next = null;
      if (call.direction === 'inbound' && call.status === 'ringing') {
        // An inbound call is answered by its first verb, unless that verb rejects it.
        if (doc.verbs[0]?.name === 'Reject') {
          await this.sb.endCall(call, 'busy');
          return 'gone';
        }
        call.answerTime = this.sb.clock.now();
        await this.sb.moveCall(call, 'in-progress', 'answered');
      }
      for (const verb of doc.verbs) {
        if (gone()) return 'gone';
        const step = await this.exec(call, verb, doc);
        if (gone()) return 'gone';
        if (step === 'continue') continue;
        if (step === 'hangup' || step === 'gone') return step;
        next = step;
        break;
      }
    }
    return 'end';
  }

  private async exec(call: SandboxCall, verb: XmlElement, doc: Doc): Promise<Step> {
    const a = verb.attrs;
    switch (verb.name) {
      case 'Say':
        await this.say(call, textOf(verb), int(a.loop, 1, 1, 20));
        return 'continue';
      case 'Play':
        await this.play(call, textOf(verb), int(a.loop, 1, 1, 20));
        return 'continue';
      case 'Pause':
        await this.sb.sleep(call, int(a.length, 1, 0, 600) * 1000);
        return 'continue';
      case 'Gather':
        return this.gather(call, verb, doc);
      case 'Dial':
        return this.dial(call, verb, doc);
      case 'Record':
        return this.record(call, verb, doc);
      case 'Redirect': {
        const url = resolveUrl(textOf(verb), doc.url);
        return url ? { url, method: method(a.method) } : 'hangup';
      }
      case 'Hangup':
      case 'Reject':
        return 'hangup';
      default:
        // Verbs the product does not use (Enqueue, Conference, Sms, ...) are skipped.
        return 'continue';
    }
  }

  // ---- Say, Play, Gather ---------------------------------------------------------------------------

  /** The phone hears `text`, which takes a time that grows with its words. */
  async say(call: SandboxCall, text: string, loop = 1): Promise<boolean> {
    if (!isLive(call)) return false;
    call.heard.push(text);
    this.sb.changed();
    const words = text.split(/\s+/).filter(Boolean).length;
    return this.sb.sleep(call, Math.max(1, words) * this.sb.timings.sayWord * loop);
  }

  private async play(call: SandboxCall, url: string, loop = 1): Promise<boolean> {
    if (!isLive(call)) return false;
    call.heard.push(`[audio ${url}]`);
    this.sb.changed();
    return this.sb.sleep(call, this.sb.timings.play * loop);
  }

  private async prompt(call: SandboxCall, el: XmlElement): Promise<void> {
    if (el.name === 'Say') await this.say(call, textOf(el), int(el.attrs.loop, 1, 1, 20));
    else if (el.name === 'Play') await this.play(call, textOf(el), int(el.attrs.loop, 1, 1, 20));
    else if (el.name === 'Pause') await this.sb.sleep(call, int(el.attrs.length, 1, 0, 600) * 1000);
  }

  /**
   * Waits for digits: the prompts play first (a key pressed during them stops them), then `timeout`
   * seconds for the first (and each next) key. Resolves the digits ('' for none), or null when the call
   * moved on.
   */
  collect(
    call: SandboxCall,
    opts: { numDigits: number | null; timeout: number; finishOnKey: string },
    prompts: XmlElement[] = [],
  ): Promise<string | null> {
    return new Promise<string | null>((resolve) => {
      const wake = () => g.finish(null);
      const g: GatherState = {
        digits: '',
        numDigits: opts.numDigits,
        finishOnKey: opts.finishOnKey,
        timeout: opts.timeout,
        done: false,
        timer: 0,
        finish: (digits) => {
          if (g.done) return;
          g.done = true;
          g.timer++;
          if (call.gather === g) call.gather = null;
          call.wakers.delete(wake);
          this.sb.changed();
          resolve(digits);
        },
        arm: () => {
          const timer = ++g.timer;
          this.sb.clock.schedule(g.timeout * 1000, () => {
            if (g.timer === timer) g.finish(g.digits);
          });
        },
      };
      if (!isLive(call)) {
        resolve(null);
        return;
      }
      call.wakers.add(wake);
      call.gather = g;
      this.sb.changed();
      this.sb.phones.gathering(call);
      this.sb.spawn(async () => {
        for (const p of prompts) {
          if (g.done || g.digits) return;
          await this.prompt(call, p);
        }
        if (!g.done && !g.digits) g.arm();
      });
    });
  }

  private async gather(call: SandboxCall, verb: XmlElement, doc: Doc): Promise<Step> {
    const a = verb.attrs;
    const input = (a.input ?? 'dtmf').split(/\s+/);
    if (!input.includes('dtmf')) {
      // Speech only: the simulated phones do not speak, so the gather times out.
    }
    const digits = await this.collect(
      call,
      {
        numDigits: a.numDigits ? int(a.numDigits, 1, 1, 100) : null,
        timeout: a.timeout === 'auto' ? 5 : int(a.timeout, 5, 1, 600),
        finishOnKey: a.finishOnKey ?? '#',
      },
      elementsOf(verb),
    );
    if (digits === null || !isLive(call)) return 'gone';
    const action = resolveUrl(a.action, doc.url);
    if (digits)
      return action ? { url: action, method: method(a.method), params: { Digits: digits } } : 'continue';
    if (a.actionOnEmptyResult === 'true' && action)
      return { url: action, method: method(a.method), params: { Digits: '' } };
    return 'continue';
  }

  // ---- Record ---------------------------------------------------------------------------------------

  /**
   * A person records until they press a key, hang up, or reach maxLength; a voicemail box is silent, so
   * its recording ends after `timeout` seconds.
   */
  private async record(call: SandboxCall, verb: XmlElement, doc: Doc): Promise<Step> {
    const a = verb.attrs;
    const generation = call.generation;
    const maxLength = int(a.maxLength, 3600, 1, 14_400);
    const timeout = int(a.timeout, 5, 0, 3600);
    const finishOnKey = a.finishOnKey ?? '1234567890*#';
    if (a.playBeep !== 'false') call.heard.push('[beep]');
    call.heard.push('[recording]');
    this.sb.changed();
    const started = this.sb.clock.now();
    const reason = await new Promise<string>((resolve) => {
      const wake = () => w.finish('hangup');
      const w: RecordWait = {
        finishOnKey,
        finish: (r) => {
          if (call.recording !== w) return;
          call.recording = null;
          call.wakers.delete(wake);
          resolve(r);
        },
      };
      call.recording = w;
      call.wakers.add(wake);
      const limit = call.voicemail ? Math.min(timeout || maxLength, maxLength) : maxLength;
      this.sb.clock.schedule(limit * 1000, () => w.finish(call.voicemail ? 'timeout' : 'max-length'));
    });
    // Replaced by new TwiML while recording: nothing is kept.
    if (generation !== call.generation && isLive(call)) return 'gone';
    const duration = Math.round((this.sb.clock.now() - started) / 1000);
    const rec = this.sb.addRecording(call, duration, 1, 'RecordVerb');
    if (a.recordingStatusCallback) {
      const url = resolveUrl(a.recordingStatusCallback, doc.url);
      if (url) {
        const params = this.sb.recordingParams(call, rec);
        this.sb.clock.schedule(0, async () => {
          await this.sb.hook(method(a.recordingStatusCallbackMethod), url, params, call.accountSid);
        });
      }
    }
    const params: Record<string, string> = {
      RecordingDuration: String(duration),
      RecordingSid: rec.sid,
      RecordingUrl: this.sb.recordingUrl(rec.sid),
    };
    if (reason === 'hangup' || finishOnKey.includes(reason)) params.Digits = reason;
    return this.toAction(call, a, doc, params);
  }

  /**
   * The verb's `action` with `params`: its answer is played next; when the caller hung up, the action is
   * still requested, its answer is not played ('gone').
   */
  private async toAction(
    call: SandboxCall,
    a: XmlElement['attrs'],
    doc: Doc,
    params: Record<string, string>,
  ): Promise<Step> {
    const action = a.action ? resolveUrl(a.action, doc.url) : null;
    if (!isLive(call)) {
      if (action)
        await this.sb.hook(
          method(a.method),
          action,
          { ...this.sb.callParams(call), ...params },
          call.accountSid,
        );
      return 'gone';
    }
    return action ? { url: action, method: method(a.method), params } : 'continue';
  }

  // ---- Dial -------------------------------------------------------------------------------------------

  private async dial(call: SandboxCall, verb: XmlElement, doc: Doc): Promise<Step> {
    const a = verb.attrs;
    const generation = call.generation;
    const timeout = int(a.timeout, 30, 5, 600);
    const timeLimit = int(a.timeLimit, 14_400, 1, 14_400);
    // The parent call's caller by default; an invalid callerId fails the Dial (Twilio's 13214).
    const callerId = a.callerId ?? call.from;
    const recordMode = a.record ?? 'do-not-record';
    const recording = recordMode.startsWith('record-from');
    const channels: 1 | 2 = recordMode.endsWith('dual') ? 2 : 1;
    type Target = NumberSpec & {
      number: string;
      statusCallback: string | null;
      statusCallbackMethod: 'GET' | 'POST';
      events: Set<CallEvent>;
    };
    const targets: Target[] = [];
    const children = elementsOf(verb);
    if (children.length === 0) {
      const number = textOf(verb);
      targets.push({
        number,
        url: null,
        method: 'POST',
        statusCallback: null,
        statusCallbackMethod: 'POST',
        events: new Set(['completed']),
      });
    }
    for (const n of children) {
      if (n.name !== 'Number' || targets.length >= 10) continue;
      const events = (n.attrs.statusCallbackEvent ?? 'completed')
        .split(/[\s,]+/)
        .filter((e): e is CallEvent => ['initiated', 'ringing', 'answered', 'completed'].includes(e));
      targets.push({
        number: textOf(n),
        url: n.attrs.url ? resolveUrl(n.attrs.url, doc.url) : null,
        method: method(n.attrs.method),
        statusCallback: n.attrs.statusCallback ? resolveUrl(n.attrs.statusCallback, doc.url) : null,
        statusCallbackMethod: method(n.attrs.statusCallbackMethod),
        events: new Set(events),
      });
    }
    const valid = isE164(callerId) ? targets.filter((t) => isE164(t.number)) : [];
    if (!isE164(callerId))
      this.sb.fail(new Error(`sandbox: <Dial callerId="${callerId}"> is not a phone number`));

    let resolveDone: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      resolveDone = resolve;
    });
    const wake = () => ds.finish();
    const ds: DialState = {
      parent: call,
      children: [],
      specs: new Map(),
      timeLimit,
      winner: null,
      bridgedAt: null,
      bridgeEndedAt: null,
      parentGone: false,
      done: false,
      finish: () => {
        if (ds.done) return;
        ds.done = true;
        if (ds.bridgedAt !== null && ds.bridgeEndedAt === null) ds.bridgeEndedAt = this.sb.clock.now();
        call.wakers.delete(wake);
        resolveDone();
      },
    };
    if (valid.length > 0) {
      call.dial = ds;
      call.wakers.add(wake);
      for (const t of valid) {
        const child = this.sb.newCall({
          accountSid: call.accountSid,
          to: t.number,
          from: callerId,
          direction: 'outbound-dial',
          parentCallSid: call.sid,
          url: t.url ?? '',
          method: t.method,
          statusCallback: t.statusCallback,
          statusCallbackMethod: t.statusCallbackMethod,
          statusCallbackEvents: t.events,
          timeoutSeconds: timeout,
        });
        child.childOf = ds;
        ds.children.push(child);
        ds.specs.set(child.sid, { url: t.url, method: t.method });
        this.sb.startOutbound(child);
      }
      await done;
    }
    if (call.dial === ds) call.dial = null;
    // New TwiML replaced this document while dialing.
    if (generation !== call.generation && isLive(call)) return 'gone';

    const winner = ds.winner;
    let status: string;
    if (winner) status = 'completed';
    else if (valid.length === 0) status = 'failed';
    else if (ds.parentGone || !isLive(call)) status = 'canceled';
    else if (ds.children.every((c) => c.status === 'busy')) status = 'busy';
    else if (ds.children.every((c) => c.status === 'failed')) status = 'failed';
    else status = 'no-answer';
    const bridged =
      ds.bridgedAt !== null
        ? Math.round(((ds.bridgeEndedAt ?? this.sb.clock.now()) - ds.bridgedAt) / 1000)
        : 0;
    const params: Record<string, string> = {
      DialBridged: winner ? 'true' : 'false',
      DialCallDuration: String(bridged),
      DialCallStatus: status,
    };
    const last = winner ?? ds.children[ds.children.length - 1];
    if (last) params.DialCallSid = last.sid;
    if (recording && winner) {
      const rec = this.sb.addRecording(call, bridged, channels, 'DialVerb');
      params.RecordingUrl = this.sb.recordingUrl(rec.sid);
      params.RecordingSid = rec.sid;
      params.RecordingDuration = String(rec.duration);
      const cb = a.recordingStatusCallback ? resolveUrl(a.recordingStatusCallback, doc.url) : null;
      if (cb) {
        const recParams = this.sb.recordingParams(call, rec);
        this.sb.clock.schedule(0, async () => {
          await this.sb.hook(method(a.recordingStatusCallbackMethod), cb, recParams, call.accountSid);
        });
      }
    }
    return this.toAction(call, a, doc, params);
  }

  /** A <Dial> leg was answered: its <Number url> plays first; finishing without hanging up bridges it. */
  async childAnswered(child: SandboxCall): Promise<void> {
    const ds = child.childOf;
    if (!ds) return;
    if (ds.done || ds.winner) {
      await this.sb.endCall(child, 'completed');
      return;
    }
    const spec = ds.specs.get(child.sid);
    if (spec?.url) {
      const outcome = await this.run(child, { url: spec.url, method: spec.method });
      if (outcome === 'gone') return;
      if (outcome === 'hangup') {
        await this.sb.endCall(child, 'completed');
        return;
      }
    }
    if (ds.done || ds.winner || !isLive(ds.parent) || !isLive(child)) {
      if (isLive(child)) await this.sb.endCall(child, 'completed');
      return;
    }
    this.bridge(ds, child);
  }

  private bridge(ds: DialState, child: SandboxCall): void {
    const parent = ds.parent;
    ds.winner = child;
    ds.bridgedAt = this.sb.clock.now();
    parent.bridgedWith = child.sid;
    child.bridgedWith = parent.sid;
    parent.heard.push(`[connected to ${child.phone}]`);
    child.heard.push(`[connected to ${parent.phone}]`);
    for (const other of ds.children) {
      if (other === child || !isLive(other)) continue;
      this.sb.spawn(() => this.sb.endCall(other, other.status === 'in-progress' ? 'completed' : 'canceled'));
    }
    this.sb.clock.schedule(ds.timeLimit * 1000, async () => {
      if (ds.winner === child && isLive(child)) await this.sb.endCall(child, 'completed');
    });
    this.sb.changed();
  }

  /** A <Dial> leg ended: the bridge is over when it was the bridged one; the Dial when none is left. */
  childEnded(ds: DialState, child: SandboxCall): void {
    if (ds.winner === child) {
      const parent = ds.parent;
      if (parent.bridgedWith === child.sid) parent.bridgedWith = null;
      ds.bridgeEndedAt = this.sb.clock.now();
      ds.finish();
      return;
    }
    if (!ds.winner && ds.children.every((c) => !isLive(c))) ds.finish();
  }

  /** The parent call ended (or got new TwiML): the legs still ringing are canceled, answered ones end. */
  parentEnded(ds: DialState, gone = true): void {
    ds.parentGone = gone;
    for (const c of ds.children) {
      if (!isLive(c)) continue;
      this.sb.spawn(() => this.sb.endCall(c, c.status === 'in-progress' ? 'completed' : 'canceled'));
    }
    ds.finish();
  }
}
