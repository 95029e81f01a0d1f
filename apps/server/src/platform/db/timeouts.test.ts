// Issue 17: a frozen PostgreSQL hung every request, /healthz included. The pool now has a connection
// timeout and a statement (and client read) timeout; /healthz answers 503 with a reason within the
// connection timeout, and an API request answers a 503 envelope instead of hanging (ADR 050).
// The database is "frozen" by a TCP relay between the app and the test PostgreSQL that stops passing
// bytes (connections are accepted and never answered), as a stopped or wedged server looks to a client.
import crypto from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEMPLATE_DB } from '../../../test/global-setup.ts';
import { bearer, login, seedTenants } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { createDb } from './client.ts';

/** A relay to `target` that can stop passing bytes (held, not lost) and start again. */
async function freezableRelay(target: { host: string; port: number }) {
  let frozen = false;
  const pairs = new Set<{ flush: () => void; close: () => void }>();
  const server = net.createServer((client) => {
    let upstream: net.Socket | null = null;
    const toUpstream: Buffer[] = [];
    const toClient: Buffer[] = [];
    const open = () => {
      upstream = net.connect(target.port, target.host);
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => client.destroy());
      upstream.on('data', (d) => (frozen ? toClient.push(d) : client.write(d)));
    };
    const flush = () => {
      if (!upstream) open();
      for (const d of toUpstream.splice(0)) upstream?.write(d);
      for (const d of toClient.splice(0)) client.write(d);
    };
    client.on('data', (d) => (frozen || !upstream ? toUpstream.push(d) : upstream.write(d)));
    client.on('error', () => undefined);
    const pair = {
      flush,
      close: () => {
        client.destroy();
        upstream?.destroy();
      },
    };
    client.on('close', () => {
      upstream?.destroy();
      pairs.delete(pair);
    });
    pairs.add(pair);
    if (!frozen) open();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const p of pairs) p.flush();
    },
    close: async () => {
      for (const p of pairs) p.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Resolves with the promise's value, or rejects once `ms` have passed without one. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, bound]).finally(() => clearTimeout(timer));
}

describe('database timeouts', () => {
  it('come from the environment, with defaults, and bad values stop the start with the name', () => {
    expect(loadConfig({}).dbTimeouts).toEqual({
      connectMs: 5_000,
      statementMs: 15_000,
      idleInTransactionMs: 60_000,
    });
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '2500' }).dbTimeouts.statementMs).toBe(2_500);
    for (const [name, value] of [
      ['DB_STATEMENT_TIMEOUT_MS', 'soon'],
      ['DB_CONNECT_TIMEOUT_MS', '0'],
      ['DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', '-5'],
    ]) {
      expect(() => loadConfig({ [name as string]: value as string }), name).toThrow(ConfigError);
      expect(() => loadConfig({ [name as string]: value as string }), name).toThrow(
        new RegExp(name as string),
      );
    }
  });
});

describe('a frozen database', () => {
  const adminUrl = inject('pgAdminUrl');
  const name = `stn_t_${crypto.randomBytes(6).toString('hex')}`;
  let relay: Awaited<ReturnType<typeof freezableRelay>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let pool: pg.Pool;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
    await admin.end();
    const real = new URL(adminUrl);
    relay = await freezableRelay({ host: real.hostname, port: Number(real.port) });
    const url = new URL(adminUrl);
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    url.pathname = `/${name}`;
    // Through the relay: not over the embedded server's Unix socket, which the `host` parameter would name.
    url.searchParams.delete('host');
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: url.toString(),
      DB_CONNECT_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '1000',
    });
    const created = createDb(url.toString(), 4, config.dbTimeouts);
    pool = created.pool;
    await seedTenants(created.db);
    app = await buildApp({ config, db: created.db });
    await app.ready();
  });

  afterAll(async () => {
    relay?.thaw();
    await app?.close();
    await pool?.end();
    await relay?.close();
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`drop database if exists ${name} with (force)`);
    await a.end();
  });

  it('/healthz says the database is unreachable, and an API call answers 503, quickly; both recover', async () => {
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const token = await login(app, 'bizadmin@a.test');

    relay.freeze();
    const health = await within(8_000, app.inject({ url: '/healthz' }));
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ status: 'unavailable', reason: 'database' });

    const profile = await within(8_000, app.inject({ url: '/api/v1/profile', headers: bearer(token) }));
    expect(profile.statusCode, profile.body).toBe(503);
    expect(profile.json()).toMatchObject({
      success: false,
      code: 'UNAVAILABLE',
      message: 'The service is briefly unavailable. Please try again in a moment.',
    });

    relay.thaw();
    await expect
      .poll(async () => (await app.inject({ url: '/healthz' })).statusCode, { timeout: 15_000 })
      .toBe(200);
    const again = await app.inject({ url: '/api/v1/profile', headers: bearer(token) });
    expect(again.statusCode, again.body).toBe(200);
  }, 60_000);
});
