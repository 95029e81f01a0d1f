// The embedded PostgreSQL is reached over a Unix socket in a folder of its data's own (decision 118), and
// still over loopback TCP; a second process finds the running server and its socket through postmaster.pid.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedHandle, socketDirFor, startEmbeddedPostgres } from './embedded.ts';

/** The server's address as PostgreSQL sees the connection: null over a Unix socket. */
async function serverAddress(config: string | pg.ClientConfig): Promise<string | null> {
  const client = new pg.Client(typeof config === 'string' ? { connectionString: config } : config);
  await client.connect();
  try {
    return (await client.query('select host(inet_server_addr()) as a')).rows[0].a;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-emb-'));
  let server: EmbeddedHandle;
  beforeAll(async () => {
    server = await startEmbeddedPostgres({ dataDir, databases: ['app'], persistent: false, durable: false });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is reached over its Unix socket, in the data folder, and over loopback TCP', async () => {
    const url = new URL(server.url('app'));
    expect(url.searchParams.get('host')).toBe(path.join(path.resolve(dataDir), 'run'));
    expect(fs.readdirSync(path.join(dataDir, 'run'))).toContain(`.s.PGSQL.${url.port}`);
    expect(await serverAddress(server.url('app'))).toBeNull();

    // The same server over TCP: the URL's host and port name it for a tool that reads only those.
    const { username, password } = url;
    expect(
      await serverAddress({
        host: url.hostname,
        port: Number(url.port),
        user: decodeURIComponent(username),
        password: decodeURIComponent(password),
        database: 'app',
      }),
    ).toBe('127.0.0.1');
  });

  it('is found running by a second start on the same folder, socket and all', async () => {
    const again = await startEmbeddedPostgres({ dataDir, databases: ['app', 'other'] });
    expect(again.startedHere).toBe(false);
    expect(again.url('other')).toBe(server.url('other'));
    expect(await serverAddress(again.url('other'))).toBeNull();
  });

  it('keeps to TCP where the socket path would pass the system limit of 107 bytes', () => {
    expect(socketDirFor('/srv/stn')).toBe('/srv/stn/run');
    // '/run/.s.PGSQL.65535' adds 19 bytes: a folder of 88 bytes is the longest that fits.
    const fits = `/${'d'.repeat(87)}`;
    expect(socketDirFor(fits)).toBe(`${fits}/run`);
    expect(socketDirFor(`${fits}d`)).toBeUndefined();
  });
});
