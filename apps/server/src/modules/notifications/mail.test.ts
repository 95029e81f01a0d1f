import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, drainJobs, type TestApp } from '../../../test/helpers.ts';

// A real SMTP server that is down at first and comes back: the mail job fails, is retried with its
// backoff, and the mail is delivered exactly once.
type Received = { to: string[]; raw: string };
const received: Received[] = [];
let smtp: SMTPServer | undefined;
let port = 0;
let t: TestApp;

function startSmtp(): Promise<void> {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => {
        raw += c.toString();
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  return new Promise((resolve) => smtp?.listen(port, '127.0.0.1', () => resolve()));
}

/** A free port, found by listening once: the SMTP server is started on it later. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

const outbox = async () => (await t.pool.query('select * from mail_outbox order by id')).rows;
const jobs = async () =>
  (await t.pool.query(`select state, retry_count from pgboss.job where name = 'mail.send'`)).rows;

beforeAll(async () => {
  port = await freePort();
  t = await createTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_RETRY_DELAY_SECONDS: '1',
    MAIL_RETRY_LIMIT: '5',
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

describe('mail on a job', () => {
  it('answers before SMTP, retries while the server is down, and delivers once when it is back', async () => {
    const started = Date.now();
    await t.app.deps.mailer.send({ to: 'lead@example.test', subject: 'Hello', text: 'A body with a link' });
    // Recorded at once, before any delivery attempt finished.
    expect(Date.now() - started).toBeLessThan(2_000);
    const [queued] = await outbox();
    expect(queued).toMatchObject({ to: 'lead@example.test', status: 'queued', text: 'A body with a link' });

    // The first attempt fails against the closed port, and the failure is recorded.
    await expect.poll(async () => (await outbox())[0].error, { timeout: 10_000 }).toMatch(/ECONNREFUSED/);
    expect((await outbox())[0].status).toBe('queued');
    expect(received).toHaveLength(0);
    await expect.poll(async () => (await jobs())[0].state, { timeout: 10_000 }).toBe('retry');

    await startSmtp();
    await drainJobs(t, 30_000);
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toEqual(['lead@example.test']);
    expect(received[0]?.raw).toContain('A body with a link');
    const [sent] = await outbox();
    expect(sent).toMatchObject({ status: 'sent', error: null, text: '' });
    expect(sent.message_id).toBeTruthy();
    const [job] = await jobs();
    expect(job.state).toBe('completed');
    expect(job.retry_count).toBeGreaterThanOrEqual(1);

    // A repeated job (as after a crash between sending and completing) sends nothing again.
    await t.app.deps.queue.send(t.db, t.app.deps.mailer.job, { outboxId: Number(sent.id) });
    await drainJobs(t);
    expect(received).toHaveLength(1);
  });

  it('writes no outbox row and no job when the caller rolls back', async () => {
    const rows = (await outbox()).length;
    const jobCount = (await jobs()).length;
    await expect(
      t.db.transaction(async (tx) => {
        await t.app.deps.mailer.send({ to: 'never@example.test', subject: 'No', text: 'No' }, tx);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await drainJobs(t);
    expect(await outbox()).toHaveLength(rows);
    expect(await jobs()).toHaveLength(jobCount);
    expect(received.some((r) => r.to.includes('never@example.test'))).toBe(false);
  });
});

/** The decoded body of the MIME part whose headers match `header` in a raw message. */
function partOf(raw: string, header: RegExp): string | null {
  for (const part of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
    const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
    if (!header.test(head)) continue;
    const body = rest.join('\n\n').trim();
    if (/content-transfer-encoding:\s*base64/i.test(head))
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    if (/content-transfer-encoding:\s*quoted-printable/i.test(head))
      return body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return body;
  }
  return null;
}

describe('mail with an HTML body and a file', () => {
  it('delivers the HTML alternative and the attachment, then keeps neither in the outbox', async () => {
    if (!smtp) await startSmtp();
    const csv = 'day,texts_in\n2026-01-01,3\ntotal,3\n';
    await t.app.deps.mailer.send({
      to: 'report@example.test',
      subject: 'Report',
      text: 'Plain figures',
      html: '<p>HTML figures</p>',
      attachments: [
        { filename: 'analytics-2026-01-01-2026-01-01.csv', content: csv, contentType: 'text/csv' },
      ],
    });
    const [queued] = (await outbox()).filter((r) => r.to === 'report@example.test');
    expect(queued.html).toBe('<p>HTML figures</p>');
    expect(queued.attachments).toEqual([
      { filename: 'analytics-2026-01-01-2026-01-01.csv', content: csv, contentType: 'text/csv' },
    ]);
    await drainJobs(t, 30_000);
    const got = received.find((r) => r.to.includes('report@example.test'));
    expect(got).toBeDefined();
    const raw = got?.raw ?? '';
    expect(partOf(raw, /content-type:\s*text\/plain/i)).toContain('Plain figures');
    expect(partOf(raw, /content-type:\s*text\/html/i)).toContain('<p>HTML figures</p>');
    const file = partOf(raw, /filename="?analytics-2026-01-01-2026-01-01\.csv/i);
    expect(file).toBe(csv);
    const [sent] = (await outbox()).filter((r) => r.to === 'report@example.test');
    expect(sent).toMatchObject({ status: 'sent', text: '', html: null, attachments: [] });
  });
});
