import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/platform/db/embedded.ts';
import { startChildServer } from './child-server.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-start-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Runs the real entry point (as `npm start` does) until it prints its URL. */
const startServer = (port: number) =>
  startChildServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
  });

async function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('the platform as npm start runs it', () => {
  it('starts with an embedded database and demo data, shuts down gracefully and keeps everything on restart', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = await startServer(port);
    expect(first.output()).toContain(`running on http://localhost:${port}`);
    expect(first.output()).toContain('admin@demo.test');

    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    const loginRes = await fetch(`${base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@acme.test', password: 'demo-acme-1' }),
    });
    const { access_token, role_group } = (await loginRes.json()) as {
      access_token: string;
      role_group: string;
    };
    expect(role_group).toBe('Agency');
    const put = await fetch(`${base}/api/v1/setting`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ language: 'es' }),
    });
    expect(put.status).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers checked field by field below
    const acme: any = await (await fetch(`${base}/api/v1/settings/site-data/acme.localhost`)).json();
    expect(acme.data).toMatchObject({ validDomain: true, title: 'Acme Callbacks' });

    expect(await stop(first.child)).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);

    const second = await startServer(port);
    try {
      // Same token, same setting, no second copy of the demo data.
      // biome-ignore lint/suspicious/noExplicitAny: JSON answer checked field by field below
      const profile: any = await (
        await fetch(`${base}/api/v1/profile`, { headers: { authorization: `Bearer ${access_token}` } })
      ).json();
      expect(profile.data.user.settings.language).toBe('es');
      expect(profile.data.user.email).toBe('owner@acme.test');
      const check = await fetch(`${base}/api/v1/settings/site-data/acme.localhost`);
      expect(((await check.json()) as { data: { agency_id: number } }).data.agency_id).toBe(
        acme.data.agency_id,
      );
    } finally {
      expect(await stop(second.child)).toBe(0);
    }
  }, 120_000);
});
