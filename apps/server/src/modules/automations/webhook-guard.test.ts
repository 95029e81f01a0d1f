// The URL guard behind the Webhook block (ADR 049, 071), through the action run by the engine: targets that
// are or resolve to loopback, private, link-local (the cloud metadata address), CGNAT, unspecified, IPv6
// loopback, unique-local or link-local addresses, IPv4-mapped and other spellings of them, and redirects
// from the one allowed test server to any of them, are each refused before a connection is opened and
// recorded as a failed step (no retry), the journey going on. Listeners on addresses this machine has
// (127.0.0.2, 127.0.0.1 on another port, ::1) prove that nothing connected to them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config.ts';
import { type Receiver, startReceiver } from './actions/test-fixtures.ts';
import { type ActionsApp, actionsApp, addContact, runBlock } from './actions/test-support.ts';

let h: ActionsApp;
/** The one allowed origin (AUTOMATION_WEBHOOK_ALLOW_ORIGINS). */
let rx: Receiver;
/** Listeners that must never be reached. */
let trap2: Receiver;
let trapLocal: Receiver;
let trap6: Receiver;
let contact: number;

beforeAll(async () => {
  rx = await startReceiver('127.0.0.1');
  trap2 = await startReceiver('127.0.0.2');
  trapLocal = await startReceiver('127.0.0.1');
  trap6 = await startReceiver('::1');
  h = await actionsApp({ AUTOMATION_WEBHOOK_ALLOW_ORIGINS: rx.origin });
  contact = await addContact(h, { phone: '+14155550170', first_name: 'Gus' });
});
afterAll(async () => {
  await h?.close();
  for (const r of [rx, trap2, trapLocal, trap6]) await r?.close();
});

const port = (r: Receiver) => new URL(r.origin).port;
const connections = () => trap2.connections + trapLocal.connections + trap6.connections;

/** The Webhook block to `url`: refused by the guard, recorded as failed once, the journey completed. */
async function expectRefused(url: string, reason = 'address') {
  const j = await runBlock(h, 'Webhook', { url }, contact);
  expect(j.status, url).toBe('completed');
  expect(j.step, url).toMatchObject({
    status: 'failed',
    attempts: 1,
    error: 'automations.action.webhook_refused',
    detail: { reason },
  });
  return j;
}

describe('a webhook target', () => {
  const cases: [string, () => string][] = [
    ['loopback 127.0.0.2', () => `http://127.0.0.2:${port(trap2)}/hook`],
    ['a name resolving to loopback (localhost)', () => `http://localhost:${port(trapLocal)}/hook`],
    ['another port of the allowed address', () => `http://127.0.0.1:${port(trapLocal)}/hook`],
    ['IPv6 loopback ::1', () => `http://[::1]:${port(trap6)}/hook`],
    ['IPv4-mapped IPv6 of loopback', () => `http://[::ffff:127.0.0.2]:${port(trap2)}/hook`],
    ['IPv4-mapped IPv6 in hex', () => `http://[::ffff:7f00:2]:${port(trap2)}/hook`],
    ['loopback written as one number', () => `http://2130706434:${port(trap2)}/hook`],
    ['loopback written in hex', () => `http://0x7f.0.0.2:${port(trap2)}/hook`],
    ['private 10/8', () => 'http://10.0.0.1/hook'],
    ['private 172.16/12', () => 'http://172.16.5.4:8080/hook'],
    ['private 192.168/16', () => 'https://192.168.1.1/hook'],
    ['link-local, the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['CGNAT 100.64/10', () => 'http://100.64.0.1/hook'],
    ['unspecified 0.0.0.0', () => `http://0.0.0.0:${port(trapLocal)}/hook`],
    ['IPv6 unique local fc00::/7', () => 'http://[fd12:3456::1]/hook'],
    ['IPv6 link-local fe80::/10', () => 'http://[fe80::1]/hook'],
    ['IPv4-mapped IPv6 of the metadata address', () => 'http://[::ffff:169.254.169.254]/hook'],
  ];

  it.each(cases)('%s is refused with no connection opened', async (_name, url) => {
    const before = connections();
    await expectRefused(url());
    expect(connections()).toBe(before);
  });

  it('the allowed test server itself is reached (the refusals above are the guard, not the network)', async () => {
    rx.received.length = 0;
    const j = await runBlock(h, 'Webhook', { url: `${rx.origin}/ok` }, contact);
    expect(j.step).toMatchObject({ status: 'done', detail: { status: 200 } });
    expect(rx.received).toHaveLength(1);
  });
});

describe('a redirect from the allowed server', () => {
  const cases: [string, number, () => string][] = [
    ['to loopback 127.0.0.2', 302, () => `http://127.0.0.2:${port(trap2)}/next`],
    ['to localhost', 307, () => `http://localhost:${port(trapLocal)}/next`],
    ['to another port of the allowed address', 308, () => `http://127.0.0.1:${port(trapLocal)}/next`],
    ['to IPv6 loopback', 301, () => `http://[::1]:${port(trap6)}/next`],
    ['to IPv4-mapped loopback', 303, () => `http://[::ffff:7f00:2]:${port(trap2)}/next`],
    ['to the metadata address', 302, () => 'http://169.254.169.254/latest/meta-data/iam'],
    ['to a private address', 307, () => 'http://10.1.2.3/next'],
  ];

  it.each(cases)('%s (%i) is refused with no connection opened', async (_name, status, location) => {
    rx.received.length = 0;
    rx.answers.push({ status, headers: { location: location() } });
    const before = connections();
    const j = await expectRefused(`${rx.origin}/redirecting`);
    expect(rx.received).toHaveLength(1);
    expect(connections()).toBe(before);
    expect(String(j.step.detail.message)).toContain('refused');
  });
});

describe('AUTOMATION_WEBHOOK_ALLOW_ORIGINS', () => {
  it('is empty by default and takes exact origins only', () => {
    expect(loadConfig({}).automationWebhookAllowOrigins).toEqual([]);
    expect(
      loadConfig({ AUTOMATION_WEBHOOK_ALLOW_ORIGINS: 'http://127.0.0.1:4567, https://[::1]:8443/' })
        .automationWebhookAllowOrigins,
    ).toEqual(['http://127.0.0.1:4567', 'https://[::1]:8443']);
    for (const bad of [
      '*',
      'true',
      '127.0.0.1:4567',
      'http://127.0.0.1:4567/path',
      'ftp://host',
      'http://u:p@host',
    ])
      expect(() => loadConfig({ AUTOMATION_WEBHOOK_ALLOW_ORIGINS: bad }), bad).toThrow(ConfigError);
  });
});
