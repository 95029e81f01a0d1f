// The real-carrier adapter's own fetches (ADR 049): a recording by its sid from Twilio's API only, media
// from Twilio's hosts only, the account's credentials to Twilio's API only. The guard given to the adapter
// is a spy that records what it is asked and answers itself: nothing here connects outside 127.0.0.0/8.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outbound, OutboundRequest } from '../outbound/guard.ts';
import { TwilioCarrier } from './twilio-carrier.ts';

const ACCOUNT = `AC${'1'.repeat(32)}`;
const TOKEN = 'the-agency-auth-token';
const BASIC = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const REC = `RE${'a'.repeat(32)}`;

let local: http.Server;
let localBase: string;
const seen: http.IncomingHttpHeaders[] = [];

function spyOutbound() {
  const asked: { url: string; request: OutboundRequest }[] = [];
  const answer = async (url: string, request: OutboundRequest) => {
    asked.push({ url, request });
    return { status: 200, headers: { 'content-type': 'audio/wav' }, url, body: Buffer.from('RIFF') };
  };
  const outbound = {
    fetch: answer,
    // A recording is streamed (up to 160 MiB, never whole in memory): here a body still being written.
    stream: async (url: string, request: OutboundRequest) => {
      asked.push({ url, request });
      const body = new PassThrough();
      setImmediate(() => body.end(Buffer.from('RIFF')));
      return { status: 200, headers: { 'content-type': 'audio/wav' }, url, body };
    },
  } as Outbound;
  return { asked, outbound };
}

beforeAll(async () => {
  local = http.createServer((req, res) => {
    seen.push(req.headers);
    res.end('stolen');
  });
  await new Promise<void>((r) => local.listen(0, '127.0.0.1', r));
  localBase = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
});
afterAll(() => {
  local?.close();
});

describe('TwilioCarrier recordings and media', () => {
  it('never takes a recording "sid" that is a URL, and sends the credentials nowhere', async () => {
    const spy = spyOutbound();
    const c = new TwilioCarrier({ accountSid: ACCOUNT, authToken: TOKEN, outbound: spy.outbound });
    for (const bad of [`${localBase}/steal`, `https://evil.example.test/${REC}`, `${REC}/../x`, 'RE123', ''])
      await expect(c.fetchRecordingAudio(bad), bad).rejects.toMatchObject({
        name: 'CarrierError',
        status: 404,
      });
    expect(spy.asked).toEqual([]);
    // Without a spy: the platform's guard, and still nothing reaches the local server.
    const real = new TwilioCarrier({ accountSid: ACCOUNT, authToken: TOKEN });
    await expect(real.fetchRecordingAudio(`${localBase}/steal`)).rejects.toMatchObject({ status: 404 });
    expect(seen).toEqual([]);
  });

  it("builds the recording's URL on Twilio's API from the sid, with the account's credentials", async () => {
    const spy = spyOutbound();
    const c = new TwilioCarrier({ accountSid: ACCOUNT, authToken: TOKEN, outbound: spy.outbound });
    const audio = await c.fetchRecordingAudio(REC);
    // A stream to pipe to storage, not a buffer of the whole file.
    expect(audio.body).toBeInstanceOf(Readable);
    const chunks: Buffer[] = [];
    for await (const chunk of audio.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('RIFF');
    expect(spy.asked).toHaveLength(1);
    expect(spy.asked[0]?.url).toBe(
      `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT}/Recordings/${REC}.wav`,
    );
    expect(spy.asked[0]?.request).toMatchObject({
      allowHosts: ['api.twilio.com'],
      credentials: { authorization: BASIC },
    });
  });

  it("fetches media from Twilio's hosts only, the credentials to its API only", async () => {
    const spy = spyOutbound();
    const c = new TwilioCarrier({ accountSid: ACCOUNT, authToken: TOKEN, outbound: spy.outbound });
    for (const bad of [
      `${localBase}/x.png`,
      'http://api.twilio.com/2010-04-01/x',
      'https://api.twilio.com.evil.example.test/x',
      'https://169.254.169.254/latest/meta-data/',
      'https://evil.example.test/twiliocdn.com/x',
      'file:///etc/passwd',
    ])
      await expect(c.fetchMedia(bad, { maxBytes: 1024 }), bad).rejects.toMatchObject({ status: 403 });
    expect(spy.asked).toEqual([]);

    const api = `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT}/Messages/MM${'2'.repeat(32)}/Media/ME${'3'.repeat(32)}`;
    await c.fetchMedia(api, { maxBytes: 1024 });
    await c.fetchMedia('https://media.twiliocdn.com/x/y.png', { maxBytes: 1024 });
    expect(spy.asked.map((a) => a.url)).toEqual([api, 'https://media.twiliocdn.com/x/y.png']);
    expect(spy.asked[0]?.request).toMatchObject({ maxBytes: 1024, credentials: { authorization: BASIC } });
    expect(spy.asked[1]?.request.credentials).toBeUndefined();
    expect(spy.asked.every((a) => a.request.allowHosts?.includes('api.twilio.com'))).toBe(true);
    expect(seen).toEqual([]);
  });
});
