// The floor (issue 27): the CPU this machine charges for what every text and callback cannot avoid, so that
// bench/inbound's and bench/callback's figures can be read against it. The same requests as bench/inbound's
// (a form-encoded webhook, 1,000 a second over 64 keep-alive connections from another process) answered by:
//   1. a bare Node HTTP server (the least any Node server pays: parsing, the socket's reads and writes);
//   2. Fastify with that one route;
//   3. the platform's own app: a signed text (/webhooks/twilio/sms-in, the demo agency's account) to a number
//      nobody serves. Every request goes through the app's hooks, the webhook tree's form parsing and its
//      signature check, and the inbound handler, whose lookup of the number is cached: no database work;
// and 4. one statement's round trip on the platform's pool (a named statement on an indexed row, one after
// another), this process and PostgreSQL apart. Prints the CPU a request or a statement of each.
// FLOOR_REQUESTS and FLOOR_RPS change the load; FLOOR_STATEMENTS the statements; BENCH_PROFILE=file writes a
// CPU profile of step 3.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { agencyCarrierAccount } from '../../apps/server/src/modules/agencies/service.ts';
import { twilioSignature } from '../../apps/server/src/platform/webhooks/tree.ts';
import { demoBusiness, inProcessPlatform } from '../lib/in-process.ts';
import { postgresCpuMs } from '../lib/postgres-cpu.ts';

const REQUESTS = Number(process.env.FLOOR_REQUESTS ?? 10_000);
const RPS = Number(process.env.FLOOR_RPS ?? 1000);
const STATEMENTS = Number(process.env.FLOOR_STATEMENTS ?? 10_000);
const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
const PUBLIC = 'http://localhost:3000';
const SMS_PATH = '/webhooks/twilio/sms-in';
/** The webhook's form (the account is the demo agency's, filled in once the platform runs). */
const form = (accountSid: string) => ({
  AccountSid: accountSid,
  MessageSid: `SM${'1'.repeat(32)}`,
  From: '+14155550100',
  // A number no install has: the text is ignored once its number is looked up (and the lookup cached).
  To: '+14155550199',
  Body: 'floor message',
  NumMedia: '0',
});
const FORM = { 'content-type': 'application/x-www-form-urlencoded', host: new URL(PUBLIC).host };

const ms = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

/** CPU of this process a request while the client process sends REQUESTS at RPS to `port` `path`. */
async function perRequest(
  port: number,
  urlPath: string,
  params: Record<string, string> = form(`AC${'0'.repeat(32)}`),
  headers: Record<string, string> = {},
): Promise<{ ms: number; codes: string }> {
  const client = fork(path.join(import.meta.dirname, 'client.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      FLOOR_CLIENT: JSON.stringify({
        port,
        path: urlPath,
        body: new URLSearchParams(params).toString(),
        headers: { ...FORM, ...headers },
        count: REQUESTS,
        rps: RPS,
      }),
    },
  });
  let cpu0 = process.cpuUsage();
  return new Promise((resolve, reject) => {
    client.on('message', (m: { type: string; codes?: Record<string, number> }) => {
      if (m.type === 'start') {
        cpu0 = process.cpuUsage();
        client.send({ type: 'go' });
      }
      if (m.type === 'done')
        resolve({
          ms: ms(process.cpuUsage(cpu0)) / REQUESTS,
          codes: Object.entries(m.codes ?? {})
            .map(([code, n]) => `${n} × ${code}`)
            .join(', '),
        });
    });
    client.on('exit', (code) => code && reject(new Error(`floor client exited with ${code}`)));
  });
}

const line = (label: string, value: string) => console.log(`  ${label.padEnd(58)} ${value}`);
const load0 = os.loadavg();
console.log(
  `floor bench: ${REQUESTS} webhook-sized POSTs at ${RPS}/s over 64 connections, from another process`,
);

// 1. Bare Node.
{
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(TWIML);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const r = await perRequest((server.address() as AddressInfo).port, '/sms');
  server.closeAllConnections();
  server.close();
  line('bare Node HTTP server', `${r.ms.toFixed(3)} ms a request (${r.codes})`);
}

// 2. Fastify, one route.
{
  const app = Fastify();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.post('/sms', async (_req, reply) => reply.type('text/xml').send(TWIML));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const r = await perRequest((app.server.address() as AddressInfo).port, '/sms');
  await app.close();
  line('Fastify, one route', `${r.ms.toFixed(3)} ms a request (${r.codes})`);
}

// 3 and 4. The platform.
const platform = await inProcessPlatform('stn-bench-floor-');
try {
  const { app, database, dataDir } = platform;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const demo = await demoBusiness(database.pool);
  const account = await agencyCarrierAccount(app.deps, demo.agency_id);
  if (!account) throw new Error('no demo carrier account');
  const params = form(account.accountSid);
  // BENCH_PROFILE=file: a V8 CPU profile of this step (open it in Chrome's DevTools).
  const profiler = process.env.BENCH_PROFILE ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const r = await perRequest((app.server.address() as AddressInfo).port, SMS_PATH, params, {
    'x-twilio-signature': twilioSignature(account.authToken, `${PUBLIC}${SMS_PATH}`, params),
  });
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    fs.writeFileSync(process.env.BENCH_PROFILE as string, JSON.stringify(profile));
  }
  line(
    'the platform, a signed text to a number nobody serves',
    `${r.ms.toFixed(3)} ms a request (${r.codes})`,
  );

  const text = 'select id, name from businesses where id = $1';
  for (let i = 0; i < 200; i++) await database.pool.query(text, [demo.business_id]);
  const pg0 = postgresCpuMs(dataDir);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < STATEMENTS; i++) await database.pool.query(text, [demo.business_id]);
  const server = ms(process.cpuUsage(cpu0)) / STATEMENTS;
  const pgMs = (postgresCpuMs(dataDir) - pg0) / STATEMENTS;
  line(
    'one statement, one after another (a row by its key)',
    `${(server + pgMs).toFixed(3)} ms = this process ${server.toFixed(3)} + PostgreSQL ${pgMs.toFixed(3)}`,
  );

  // 5 and 6. What a callback meets (ADR 125): at 20 callbacks a second its events are spread out, and the
  // process and the database sleep between them. Each wake-up costs CPU of its own on a virtual machine.
  const SPACED = Number(process.env.FLOOR_SPACED ?? 300);
  const pause = () => new Promise((resolve) => setTimeout(resolve, 10));
  const woken0 = process.cpuUsage();
  for (let i = 0; i < SPACED; i++) await pause();
  const woken = ms(process.cpuUsage(woken0)) / SPACED;
  line('an idle process woken every 10 ms (a timer, no other work)', `${woken.toFixed(3)} ms a wake-up`);
  const spacedPg0 = postgresCpuMs(dataDir);
  const spaced0 = process.cpuUsage();
  for (let i = 0; i < SPACED; i++) {
    await database.pool.query(text, [demo.business_id]);
    await pause();
  }
  const spaced = ms(process.cpuUsage(spaced0)) / SPACED - woken;
  const spacedPg = (postgresCpuMs(dataDir) - spacedPg0) / SPACED;
  line(
    'one statement every 10 ms (both sides idle between)',
    `${(spaced + spacedPg).toFixed(3)} ms = this process ${spaced.toFixed(3)} (its timer's wake-up apart) + PostgreSQL ${spacedPg.toFixed(3)}`,
  );
} finally {
  await platform.close();
}
console.log(
  `  load average ${load0.map((l) => l.toFixed(1)).join(' ')} before, ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} after, on ${os.cpus().length} cores`,
);
