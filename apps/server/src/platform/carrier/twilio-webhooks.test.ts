// The Twilio adapter's inbound half (ADR 056): Twilio's webhook forms become our events, our call
// instructions become the TwiML that Twilio (and the sandbox's interpreter) reads, Twilio's error codes
// become our error kinds.
import { describe, expect, it } from 'vitest';
import { CarrierError } from './carrier.ts';
import { dial, gather, hangup, pause, redirect, reject, say, voicemail } from './instructions.ts';
import { renderTwiml, twilioWebhooks } from './twilio-webhooks.ts';
import type { WebhookRequest } from './webhooks.ts';

const request = (body: WebhookRequest['body']): WebhookRequest => ({
  body,
  url: 'https://x.test/',
  headers: {},
});
const RE = `RE${'a'.repeat(32)}`;
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

describe('Twilio webhooks into our events', () => {
  it('reads an MMS with its media in order, at most ten, and the carrier time', () => {
    const text = twilioWebhooks.parse(
      'text-in',
      request({
        AccountSid: 'AC1',
        SmsMessageSid: 'SM1',
        From: '+15550001111',
        To: '+15550002222',
        Body: 'hi',
        NumMedia: '2',
        MediaUrl0: 'https://api.twilio.com/m0',
        MediaContentType0: 'image/png',
        MediaUrl1: 'https://api.twilio.com/m1',
        MediaContentType1: 'image/jpeg',
        DateSent: '2026-01-05T14:00:00Z',
      }),
    );
    expect(text).toEqual({
      accountSid: 'AC1',
      messageSid: 'SM1',
      from: '+15550001111',
      to: '+15550002222',
      body: 'hi',
      media: [
        { url: 'https://api.twilio.com/m0', contentType: 'image/png' },
        { url: 'https://api.twilio.com/m1', contentType: 'image/jpeg' },
      ],
      sentAt: new Date('2026-01-05T14:00:00Z'),
    });
    expect(twilioWebhooks.parse('text-in', request({ NumMedia: '999' })).media).toEqual([]);
  });

  it('reads a status with its error as our kind (21610: opted out)', () => {
    expect(
      twilioWebhooks.parse(
        'text-progress',
        request({ AccountSid: 'AC1', MessageSid: 'SM1', MessageStatus: 'failed', ErrorCode: '21610' }),
      ),
    ).toEqual({
      accountSid: 'AC1',
      messageSid: 'SM1',
      status: 'failed',
      errorCode: 21610,
      errorMessage: null,
      errorKind: 'opted-out',
    });
  });

  it('tells a machine from a person, an answered dial from an unanswered one, a recording by its sid only', () => {
    expect(twilioWebhooks.parse('call', request({ AnsweredBy: 'machine_start' })).byMachine).toBe(true);
    expect(twilioWebhooks.parse('call', request({ AnsweredBy: 'fax' })).byMachine).toBe(true);
    expect(twilioWebhooks.parse('call', request({ AnsweredBy: 'human' })).byMachine).toBe(false);
    const ended = twilioWebhooks.parse(
      'dial-ended',
      request({
        CallSid: 'CA1',
        DialCallStatus: 'answered',
        DialCallDuration: '42',
        RecordingSid: RE,
        RecordingUrl: 'u',
      }),
    );
    expect(ended).toMatchObject({ completed: true, duration: 42, recording: { sid: RE, url: 'u' } });
    const noAnswer = twilioWebhooks.parse(
      'dial-ended',
      request({ DialCallStatus: 'no-answer', RecordingSid: 'RE1' }),
    );
    expect(noAnswer).toMatchObject({ completed: false, duration: null, recording: null });
    expect(twilioWebhooks.parse('recording', request({ RecordingStatus: 'absent' })).completed).toBe(false);
    expect(twilioWebhooks.parse('call-progress', request({ CallStatus: 'ringing' })).sequence).toBe(-1);
    expect(
      twilioWebhooks.parse(
        'number-verification',
        request({ To: '+15550001111', VerificationStatus: 'success' }),
      ),
    ).toEqual({ accountSid: '', phone: '+15550001111', verified: true });
  });

  it('maps the error codes the product tells apart, and no others', () => {
    expect(new CarrierError('x', 21610, 400).kind).toBe('opted-out');
    expect(new CarrierError('x', 21452, 400).kind).toBe('number-unavailable');
    expect(new CarrierError('x', 20404, 404).kind).toBe('not-found');
    expect(new CarrierError('x', 20003, 401).isAuthentication).toBe(true);
    expect(new CarrierError('x', 21211, 400).kind).toBeNull();
  });
});

describe('our call instructions into TwiML', () => {
  it('renders every instruction as Twilio documents it, escaped', () => {
    expect(
      renderTwiml([
        gather({ digits: 1, timeout: 8, action: 'https://h/g?call=1&x=2', prompt: 'Press 1 <now>' }),
        say('Hola', 'es-ES'),
        pause(5),
        redirect('https://h/v?call=1&waited=1'),
        voicemail({ maxSeconds: 120, statusCallback: 'https://h/r' }),
        reject({ busy: true }),
        hangup(),
      ]),
    ).toBe(
      `${HEAD}<Response><Gather numDigits="1" timeout="8" action="https://h/g?call=1&amp;x=2"><Say>Press 1 &lt;now&gt;</Say></Gather>` +
        '<Say language="es-ES">Hola</Say><Pause length="5"/><Redirect>https://h/v?call=1&amp;waited=1</Redirect>' +
        '<Record maxLength="120" playBeep="true" recordingStatusCallback="https://h/r"/><Reject reason="busy"/><Hangup/></Response>',
    );
  });

  it('renders a dial with its caller id, recording, whisper and each leg’s status events', () => {
    expect(
      renderTwiml([
        dial({
          callerId: '+15550002222',
          timeout: 30,
          action: 'https://h/d',
          recording: { statusCallback: 'https://h/r' },
          targets: [{ phone: '+15550001111', whisperUrl: 'https://h/w', statusCallback: 'https://h/s' }],
        }),
      ]),
    ).toBe(
      `${HEAD}<Response><Dial callerId="+15550002222" timeout="30" action="https://h/d" record="record-from-answer" recordingStatusCallback="https://h/r">` +
        '<Number url="https://h/w" statusCallback="https://h/s" statusCallbackEvent="answered completed">+15550001111</Number></Dial></Response>',
    );
    expect(
      renderTwiml([dial({ callerId: null, timeout: 20, action: 'a', targets: [{ phone: '+1555' }] })]),
    ).toBe(`${HEAD}<Response><Dial timeout="20" action="a"><Number>+1555</Number></Dial></Response>`);
  });

  it('answers nothing to do with an empty document', () => {
    expect(twilioWebhooks.render([])).toEqual({
      type: 'text/xml; charset=utf-8',
      body: `${HEAD}<Response/>`,
    });
  });
});
