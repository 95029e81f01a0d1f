// The call reconciler after a crash (ADR 051): a real server process (the entry point `npm start` runs)
// is killed with SIGKILL while a callback rings the staff phones; a new process on the same database ends
// the call (its sandbox carrier no longer knows it) and takes the same visitor's next callback.
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startChildServer } from '../../../test/child-server.ts';
import { TEMPLATE_DB } from '../../../test/global-setup.ts';
import { PASSWORD, type Seed, seedTenants } from '../../../test/helpers.ts';
import { createDb } from '../../platform/db/client.ts';
import { freePort } from '../../platform/db/embedded.ts';
import { createSecrets } from '../../platform/secrets.ts';
import { ALWAYS_OPEN, STAFF_1, STAFF_2 } from './testing.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-reconcile-'));
const secretsKey = crypto.randomBytes(32);
const VISITOR = '+14155550301';
const INSTALL_NUMBER = '+15005550777';

let dbName = '';
let databaseUrl = '';
let pool: pg.Pool;
let seed: Seed;
const children: ChildProcess[] = [];

async function adminQuery(sql: string) {
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  dbName = `stn_t_${crypto.randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${dbName} template ${TEMPLATE_DB}`);
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();
  const made = createDb(databaseUrl, 2);
  pool = made.pool;
  seed = await seedTenants(made.db);
  // Agency A tries the product on a sandbox account (its token sealed with the servers' key).
  const sid = `AC${crypto.randomBytes(16).toString('hex')}`;
  const token = crypto.randomBytes(16).toString('hex');
  await pool.query('update agencies set twilio_config = $1 where id = $2', [
    JSON.stringify({ accountSid: sid, authToken: createSecrets(secretsKey).seal(token), sandbox: true }),
    seed.a.agency.id,
  ]);
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await pool?.end();
  if (dbName) await adminQuery(`drop database if exists ${dbName} with (force)`);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The real entry point as a child process on the test database, reconciling every second. */
async function startServer(port: number): Promise<ChildProcess> {
  const { child } = await startChildServer(
    {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      SECRETS_KEY: secretsKey.toString('base64'),
      LOG_LEVEL: 'warn',
      CALL_RECONCILE_SECONDS: '1',
    },
    90_000,
  );
  children.push(child);
  return child;
}

describe('the call reconciler', () => {
  it('ends a callback whose server was killed while it rang, and takes the same visitor’s next callback', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = await startServer(port);
    const api = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      // biome-ignore lint/suspicious/noExplicitAny: JSON answers checked field by field
      return { status: res.status, json: (await res.json().catch(() => null)) as any };
    };
    const login = await api('POST', '/api/v1/login', {
      email: seed.a.businessAdmin.email,
      password: PASSWORD,
    });
    expect(login.status).toBe(200);
    const auth = { authorization: `Bearer ${login.json.access_token}` };
    const install = await api(
      'POST',
      '/api/v1/installs',
      {
        name: 'Crash site',
        website: 'https://example.test',
        settings: {
          timezone: 'UTC',
          hours: ALWAYS_OPEN,
          timeout: 120,
          phoneAgents: [
            { name: 'Front desk', phone: STAFF_1 },
            { name: 'Dr. Bright', phone: STAFF_2 },
          ],
        },
      },
      auth,
    );
    expect(install.status, JSON.stringify(install.json)).toBe(200);
    const { id: installId, key } = install.json.data as { id: number; key: string };
    await pool.query(
      `insert into numbers (agency_id, business_id, install_id, phone_number, kind, verified)
       values ($1, $2, $3, $4, 'purchased', true)`,
      [seed.a.agency.id, seed.a.business.id, installId, INSTALL_NUMBER],
    );
    const callback = () =>
      api('POST', '/api/widget/v1/callback', { phone: VISITOR }, { 'x-install-key': key });

    const asked = await callback();
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    expect(asked.json.data.status).toBe('calling');
    const callId = asked.json.data.call_id as number;
    // The staff phones ring.
    await expect
      .poll(
        async () => {
          const phones = await api('GET', '/api/v1/sandbox/phones', undefined, auth);
          return (phones.json?.data ?? [])
            .filter((p: { state: string }) => p.state === 'ringing')
            .map((p: { number: string }) => p.number)
            .sort();
        },
        { timeout: 30_000, interval: 200 },
      )
      .toEqual([STAFF_1, STAFF_2]);
    // While it rings, the same visitor cannot ask again (one callback in flight).
    expect((await callback()).status).toBe(409);

    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const outcome = async () =>
      (await pool.query('select outcome from calls where id = $1', [callId])).rows[0]?.outcome;
    expect(await outcome()).toBe('in_progress');

    const second = await startServer(port);
    try {
      // The new process's sandbox does not know the call's legs: the call ends, nobody having taken it.
      await expect.poll(outcome, { timeout: 60_000, interval: 250 }).toBe('missed');
      const legs = await pool.query("select status from call_legs where call_id = $1 and role = 'staff'", [
        callId,
      ]);
      expect(legs.rows.map((r) => r.status)).toEqual(['failed', 'failed']);
      const login2 = await api('POST', '/api/v1/login', {
        email: seed.a.businessAdmin.email,
        password: PASSWORD,
      });
      const auth2 = { authorization: `Bearer ${login2.json.access_token}` };
      const list = await api('GET', '/api/v1/calls', undefined, auth2);
      expect(list.json.data.find((c: { id: number }) => c.id === callId)?.outcome).toBe('missed');

      const again = await callback();
      expect(again.status, JSON.stringify(again.json)).toBe(200);
      expect(again.json.data.status).toBe('calling');
      expect(again.json.data.call_id).not.toBe(callId);
    } finally {
      second.kill('SIGTERM');
      await new Promise((resolve) => second.once('exit', resolve));
    }
  }, 240_000);
});
