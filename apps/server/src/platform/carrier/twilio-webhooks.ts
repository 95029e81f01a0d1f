/**
 * Twilio's inbound half (ADR 056): its webhook form fields parsed into our events (./webhooks.ts), our
 * call instructions (./instructions.ts) rendered as TwiML as Twilio documents it
 * (https://www.twilio.com/docs/voice/twiml), and its error codes mapped to our error kinds. The sandbox
 * carrier interprets exactly the TwiML rendered here, as Twilio does.
 */
import type { FormBody } from '../webhooks/tree.ts';
import { RECORDING_SID_PATTERN } from './carrier.ts';
import type { CallInstruction, CallInstructions } from './instructions.ts';
import { twilioErrorKind } from './twilio-errors.ts';
import type {
  CarrierEventKind,
  CarrierEvents,
  CarrierWebhooks,
  RecordingRef,
  WebhookRequest,
} from './webhooks.ts';

// ---------------------------------------------------------------- parsing

const str = (body: FormBody, key: string): string => {
  const v = body[key];
  return typeof v === 'string' ? v : Array.isArray(v) ? (v[0] ?? '') : '';
};
const num = (value: string): number | null => (value && /^\d+$/.test(value) ? Number(value) : null);
const int = (value: string): number | null => (/^\d{1,9}$/.test(value) ? Number(value) : null);

/** A recording is kept by its sid, fetched later from the carrier by that sid: never a URL (ADR 049). */
function recordingOf(b: FormBody): RecordingRef | null {
  const sid = str(b, 'RecordingSid');
  const url = str(b, 'RecordingUrl');
  return RECORDING_SID_PATTERN.test(sid) && url ? { sid, url } : null;
}

const parsers: { [K in CarrierEventKind]: (b: FormBody) => CarrierEvents[K] } = {
  call: (b) => {
    const answeredBy = str(b, 'AnsweredBy');
    return {
      accountSid: str(b, 'AccountSid'),
      callSid: str(b, 'CallSid'),
      parentCallSid: str(b, 'ParentCallSid'),
      from: str(b, 'From'),
      to: str(b, 'To'),
      answeredBy,
      byMachine: answeredBy.startsWith('machine') || answeredBy === 'fax',
    };
  },
  digits: (b) => ({ accountSid: str(b, 'AccountSid'), callSid: str(b, 'CallSid'), digits: str(b, 'Digits') }),
  'call-progress': (b) => ({
    accountSid: str(b, 'AccountSid'),
    callSid: str(b, 'CallSid'),
    parentCallSid: str(b, 'ParentCallSid'),
    to: str(b, 'To'),
    status: str(b, 'CallStatus'),
    sequence: num(str(b, 'SequenceNumber')) ?? -1,
    duration: num(str(b, 'CallDuration')),
    answeredBy: str(b, 'AnsweredBy') || null,
  }),
  'dial-ended': (b) => {
    const status = str(b, 'DialCallStatus');
    return {
      accountSid: str(b, 'AccountSid'),
      callSid: str(b, 'CallSid'),
      completed: status === 'completed' || status === 'answered',
      duration: num(str(b, 'DialCallDuration')),
      recording: recordingOf(b),
    };
  },
  recording: (b) => {
    const status = str(b, 'RecordingStatus');
    return {
      accountSid: str(b, 'AccountSid'),
      callSid: str(b, 'CallSid'),
      completed: !status || status === 'completed',
      recording: recordingOf(b),
      duration: num(str(b, 'RecordingDuration')),
    };
  },
  'text-in': (b) => {
    const numMedia = Math.min(int(str(b, 'NumMedia')) ?? 0, 10);
    const media = [];
    for (let i = 0; i < numMedia; i++) {
      const url = str(b, `MediaUrl${i}`);
      if (url) media.push({ url, contentType: str(b, `MediaContentType${i}`) });
    }
    const dateSent = Date.parse(str(b, 'DateSent') || str(b, 'DateCreated'));
    return {
      accountSid: str(b, 'AccountSid'),
      messageSid: str(b, 'MessageSid') || str(b, 'SmsMessageSid') || str(b, 'SmsSid'),
      from: str(b, 'From'),
      to: str(b, 'To'),
      body: str(b, 'Body'),
      media,
      sentAt: Number.isNaN(dateSent) ? null : new Date(dateSent),
    };
  },
  'text-progress': (b) => {
    const errorCode = int(str(b, 'ErrorCode'));
    return {
      accountSid: str(b, 'AccountSid'),
      messageSid: str(b, 'MessageSid') || str(b, 'SmsSid'),
      status: str(b, 'MessageStatus') || str(b, 'SmsStatus'),
      errorCode,
      errorMessage: str(b, 'ErrorMessage') || null,
      errorKind: twilioErrorKind(errorCode),
    };
  },
  'number-verification': (b) => ({
    accountSid: str(b, 'AccountSid'),
    // Twilio names the validated number To (the validation call's callee); PhoneNumber on some callbacks.
    phone: str(b, 'PhoneNumber') || str(b, 'To') || str(b, 'Called'),
    verified: str(b, 'VerificationStatus') === 'success',
  }),
  // TrustHub posts BundleSid and Status; A2P and toll-free callbacks name their own sid.
  'registration-status': (b) => ({
    accountSid: str(b, 'AccountSid'),
    sid:
      str(b, 'BundleSid') ||
      str(b, 'BrandRegistrationSid') ||
      str(b, 'CampaignSid') ||
      str(b, 'TollfreeVerificationSid') ||
      str(b, 'ResourceSid'),
    status: str(b, 'Status') || str(b, 'BrandStatus') || str(b, 'CampaignStatus'),
  }),
};

// ---------------------------------------------------------------- TwiML

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';
export const TWIML_TYPE = 'text/xml; charset=utf-8';

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

type Attrs = Record<string, string | number | boolean | null | undefined>;

/** One element: attributes without a value are left out; children are already-built TwiML. */
function el(name: string, attrs: Attrs = {}, ...children: string[]): string {
  const a = Object.entries(attrs)
    .filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
  return children.length ? `<${name}${a}>${children.join('')}</${name}>` : `<${name}${a}/>`;
}

const sayEl = (text: string, language?: string) => el('Say', { language }, escapeXml(text));
/** A dialled number's status callbacks: its answer and its end (ADR 105, 125: nothing acts on the others). */
const LEG_EVENTS = 'answered completed';

function verb(i: CallInstruction): string {
  switch (i.do) {
    case 'say':
      return sayEl(i.text, i.language);
    case 'play':
      return el('Play', {}, escapeXml(i.url));
    case 'gather':
      return el(
        'Gather',
        { numDigits: i.digits, timeout: i.timeout, action: i.action },
        sayEl(i.prompt, i.language),
      );
    case 'dial':
      return el(
        'Dial',
        {
          callerId: i.callerId,
          timeout: i.timeout,
          action: i.action,
          record: i.recording ? 'record-from-answer' : undefined,
          recordingStatusCallback: i.recording?.statusCallback,
        },
        ...i.targets.map((t) =>
          el(
            'Number',
            {
              url: t.whisperUrl,
              statusCallback: t.statusCallback,
              statusCallbackEvent: t.statusCallback ? LEG_EVENTS : undefined,
            },
            escapeXml(t.phone),
          ),
        ),
      );
    case 'voicemail':
      return el('Record', {
        maxLength: i.maxSeconds,
        playBeep: true,
        recordingStatusCallback: i.statusCallback,
      });
    case 'pause':
      return el('Pause', { length: i.seconds });
    case 'redirect':
      return el('Redirect', {}, escapeXml(i.url));
    case 'hangup':
      return el('Hangup');
    case 'reject':
      return el('Reject', { reason: i.busy ? 'busy' : undefined });
  }
}

/** The whole TwiML document of an answer (an empty answer is an empty <Response/>). */
export function renderTwiml(instructions: CallInstructions): string {
  return `${XML_HEAD}${instructions.length ? `<Response>${instructions.map(verb).join('')}</Response>` : '<Response/>'}`;
}

/** Twilio's webhooks: the `twilio` provider of the webhook tree checks their signature. */
export const twilioWebhooks: CarrierWebhooks = {
  provider: 'twilio',
  parse: <K extends CarrierEventKind>(kind: K, request: WebhookRequest) => parsers[kind](request.body),
  render: (instructions) => ({ type: TWIML_TYPE, body: renderTwiml(instructions) }),
};
