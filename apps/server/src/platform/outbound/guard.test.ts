// The outbound URL guard (ADR 049). Every refusal is checked to happen before any connection: the guard's
// connector is a spy that records each socket it is asked for, and the local servers count theirs. The
// only servers are on 127.0.0.1; an address outside 127.0.0.0/8 is never connected to (the spy connector
// of the rebinding test hands back a socket to a local server instead).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connector, createOutbound, isPublicAddress, OutboundError, type Resolver } from './guard.ts';

type Local = {
  server: http.Server;
  origin: string;
  port: number;
  connections: number;
  requests: http.IncomingMessage[];
};

async function local(handler: http.RequestListener): Promise<Local> {
  const l = { connections: 0, requests: [] as http.IncomingMessage[] } as Local;
  l.server = http.createServer((req, res) => {
    l.requests.push(req);
    handler(req, res);
  });
  l.server.on('connection', () => {
    l.connections++;
  });
  await new Promise<void>((r) => l.server.listen(0, '127.0.0.1', r));
  l.port = (l.server.address() as AddressInfo).port;
  l.origin = `http://127.0.0.1:${l.port}`;
  return l;
}

/** A connector that records what it is asked for and opens the socket to 127.0.0.1 only. */
function spyConnector(redirectTo?: () => number) {
  const asked: Parameters<Connector>[0][] = [];
  const connect: Connector = (t) => {
    asked.push(t);
    if (!t.address.startsWith('127.') && !redirectTo) throw new Error(`test would connect to ${t.address}`);
    return net.connect({ host: '127.0.0.1', port: redirectTo ? redirectTo() : t.port });
  };
  return { asked, connect };
}

const refusal = async (p: Promise<unknown>): Promise<OutboundError> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
};

let ok: Local;
let other: Local;
let bounce: Local;
let big: Local;
let silent: Local;
let bigWritten = 0;
let bigClosed: Promise<void>;

beforeAll(async () => {
  ok = await local((req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end(`hello ${req.headers.authorization ?? 'nobody'}`);
  });
  other = await local((req, res) => res.end(`other ${req.headers.authorization ?? 'nobody'}`));
  // Redirects to wherever its query says.
  bounce = await local((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/';
    res.writeHead(302, { location: to }).end();
  });
  // Streams up to 64 MiB without a length (or declares 300 MiB at /declared), counting what it wrote.
  let closed: () => void = () => {};
  bigClosed = new Promise((r) => {
    closed = r;
  });
  big = await local((req, res) => {
    if (req.url === '/declared') {
      res.writeHead(200, { 'content-length': String(300 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 1);
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const pump = () => {
      while (bigWritten < 64 * 1024 * 1024) {
        bigWritten += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => closed());
    pump();
  });
  // Accepts and never answers.
  silent = await local(() => {});
});
afterAll(async () => {
  for (const l of [ok, other, bounce, big, silent]) {
    l?.server.closeAllConnections();
    l?.server.close();
  }
});

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, CGNAT, unspecified, multicast, broadcast and IPv4-in-IPv6 forms', () => {
    for (const a of [
      '127.0.0.1',
      '127.9.9.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      'not an address',
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });
  it('refuses the IANA special-purpose IPv6 ranges and anything outside global unicast 2000::/3', () => {
    for (const a of [
      // IPv4-translated (SIIT) ::ffff:0:a.b.c.d, in both spellings, whatever the IPv4 address
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:8.8.8.8',
      '::ffff:0:808:808',
      '0:0:0:0:ffff:0:a00:1',
      '100::1', // discard
      '100:0:0:1::1', // dummy prefix
      '2001:db8::1', // documentation
      '2001:db8:ffff::1',
      '3fff::1', // documentation (RFC 9637)
      '3fff:fff::1',
      '2002:a00:1::1', // 6to4 embedding 10.0.0.1
      '2002:808:808::1', // 6to4, even embedding a public address (relays are not ours to trust)
      '2001::1', // Teredo
      '2001:2::1', // benchmarking
      '2001:10::1', // ORCHID
      '5f00::1', // SRv6 SIDs
      '4000::1', // unassigned, outside 2000::/3
      '::2', // IPv4-compatible / reserved
      '1::1',
      '64:ff9b:1::808:808', // local NAT64
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });
  it('accepts public unicast addresses', () => {
    for (const a of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '2a00:1450:4001::1',
      '2620:fe::fe',
    ])
      expect(isPublicAddress(a), a).toBe(true);
  });
});

describe('the outbound guard', () => {
  it('refuses private, loopback, link-local and IPv6 forms of them before any connection', async () => {
    const spy = spyConnector();
    const resolve: Resolver = async () => {
      throw new Error('an IP literal is not resolved');
    };
    const guard = createOutbound({ connect: spy.connect, resolve });
    for (const url of [
      `http://127.0.0.1:${ok.port}/`,
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${ok.port}/`,
      `http://[::ffff:127.0.0.1]:${ok.port}/`,
      'http://[fd00::1]/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      // Other spellings of 127.0.0.1 that URL parsing turns into it.
      `http://2130706433:${ok.port}/`,
      `http://0x7f.1:${ok.port}/`,
    ]) {
      const err = await refusal(guard.fetch(url, { maxBytes: 1024 }));
      expect(err.reason, url).toBe('address');
    }
    expect(spy.asked).toEqual([]);
    expect(ok.connections).toBe(0);
  });

  it('refuses a name resolving to a refused address (every address of the name is checked)', async () => {
    const spy = spyConnector();
    const asked: string[] = [];
    const resolve: Resolver = async (name) => {
      asked.push(name);
      if (name === 'inside.example.test') return [{ address: '127.0.0.1', family: 4 }];
      return [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ];
    };
    const guard = createOutbound({ connect: spy.connect, resolve });
    expect(
      (await refusal(guard.fetch(`http://inside.example.test:${ok.port}/`, { maxBytes: 1024 }))).reason,
    ).toBe('address');
    expect((await refusal(guard.fetch('https://half.example.test/', { maxBytes: 1024 }))).reason).toBe(
      'address',
    );
    expect(asked).toEqual(['inside.example.test', 'half.example.test']);
    expect(spy.asked).toEqual([]);
    // The system resolver: localhost is loopback.
    const system = createOutbound({ connect: spy.connect });
    expect((await refusal(system.fetch(`http://localhost:${ok.port}/`, { maxBytes: 1024 }))).reason).toBe(
      'address',
    );
    expect(spy.asked).toEqual([]);
    expect(ok.connections).toBe(0);
  });

  it('refuses file:, gopher: and other schemes, and hosts off the allow-list, without resolving them', async () => {
    const spy = spyConnector();
    const asked: string[] = [];
    const resolve: Resolver = async (name) => {
      asked.push(name);
      return [{ address: '93.184.216.34', family: 4 }];
    };
    const guard = createOutbound({ connect: spy.connect, resolve });
    for (const url of ['file:///etc/passwd', 'gopher://127.0.0.1:70/_x', 'ftp://example.test/', 'data:,x'])
      expect((await refusal(guard.fetch(url, { maxBytes: 1024 }))).reason, url).toBe('scheme');
    const hosts = ['api.twilio.com', '*.twiliocdn.com'];
    for (const url of [
      'https://evil.example.test/x',
      'https://api.twilio.com.evil.example.test/x',
      'https://twiliocdn.com.evil.test/',
      'https://eviltwiliocdn.com/',
    ])
      expect((await refusal(guard.fetch(url, { maxBytes: 1024, allowHosts: hosts }))).reason, url).toBe(
        'host',
      );
    expect((await refusal(guard.fetch('http://user:pw@example.test/', { maxBytes: 1 }))).reason).toBe('url');
    expect(asked).toEqual([]);
    expect(spy.asked).toEqual([]);
  });

  it('fetches from an origin the caller allowed explicitly, and connects to the address it checked', async () => {
    const spy = spyConnector();
    const guard = createOutbound({ connect: spy.connect, allowOrigins: [ok.origin] });
    const res = await guard.fetch(`${ok.origin}/x`, {
      maxBytes: 1024,
      credentials: { authorization: 'Basic a' },
    });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('hello Basic a');
    expect(spy.asked).toMatchObject([{ address: '127.0.0.1', port: ok.port, tls: false }]);

    // No DNS rebinding: the name is resolved once, and the socket goes to that very address.
    let lookups = 0;
    const rebinding: Resolver = async () => {
      lookups++;
      return [{ address: lookups === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const spy2 = spyConnector(() => ok.port);
    const guard2 = createOutbound({ connect: spy2.connect, resolve: rebinding });
    const res2 = await guard2.fetch('http://rebind.example.test/y', { maxBytes: 1024 });
    expect(res2.body.toString()).toBe('hello nobody');
    expect(lookups).toBe(1);
    expect(spy2.asked.map((t) => t.address)).toEqual(['93.184.216.34']);
    expect(ok.requests.at(-1)?.headers.host).toBe('rebind.example.test');
  });

  it('checks every redirect hop: a redirect to a refused address is refused before connecting to it', async () => {
    const spy = spyConnector();
    // The first hop is allowed by the test's explicit list; the targets are not.
    const guard = createOutbound({ connect: spy.connect, allowOrigins: [bounce.origin] });
    const before = other.connections;
    for (const to of [
      `http://127.0.0.1:${other.port}/`,
      `http://localhost:${other.port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:127.0.0.1]/',
      'file:///etc/passwd',
    ]) {
      const err = await refusal(
        guard.fetch(`${bounce.origin}/?to=${encodeURIComponent(to)}`, { maxBytes: 1024 }),
      );
      expect(['address', 'scheme'], to).toContain(err.reason);
    }
    expect(other.connections).toBe(before);
    expect(spy.asked.every((t) => t.port === bounce.port)).toBe(true);
    // A loop is cut at the hop limit.
    const loop = `${bounce.origin}/?to=${encodeURIComponent(`${bounce.origin}/?to=/`)}`;
    expect((await refusal(guard.fetch(loop, { maxBytes: 1024, maxRedirects: 3 }))).reason).toBe('redirect');
  });

  it('follows a redirect to another allowed origin without the credentials of the first', async () => {
    const guard = createOutbound({ allowOrigins: [bounce.origin, other.origin] });
    const res = await guard.fetch(`${bounce.origin}/?to=${encodeURIComponent(`${other.origin}/z`)}`, {
      maxBytes: 1024,
      credentials: { authorization: 'Basic secret' },
      headers: { 'user-agent': 'stn' },
    });
    expect(res.body.toString()).toBe('other nobody');
    expect(bounce.requests.at(-1)?.headers.authorization).toBe('Basic secret');
    expect(other.requests.at(-1)?.headers.authorization).toBeUndefined();
    expect(other.requests.at(-1)?.headers['user-agent']).toBe('stn');
  });

  it('cuts an oversize body while streaming, and refuses a declared oversize length unread', async () => {
    const guard = createOutbound({ allowOrigins: [big.origin] });
    const limit = 1024 * 1024;
    const err = await refusal(guard.fetch(`${big.origin}/stream`, { maxBytes: limit }));
    expect(err.reason).toBe('too-large');
    await bigClosed;
    // The server was stopped long before its 64 MiB: the body was never buffered whole.
    expect(bigWritten).toBeLessThan(16 * 1024 * 1024);

    const streamed = await guard.stream(`${big.origin}/declared`, { maxBytes: limit }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((streamed as OutboundError).reason).toBe('too-large');
  });

  it('gives up on a server that does not answer in time', async () => {
    const guard = createOutbound({ allowOrigins: [silent.origin] });
    const err = await refusal(guard.fetch(`${silent.origin}/`, { maxBytes: 1024, timeoutMs: 300 }));
    expect(err.reason).toBe('timeout');
  });
});
