// A local HTTP receiver for the Webhook block's tests (ADR 071): it records every request (headers, body)
// and answers what the test sets, per request. Only the tests import this file.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
export type Answer = { status: number; body?: string; headers?: Record<string, string> };

export type Receiver = {
  origin: string;
  received: Received[];
  /** The answers to the next requests, in order; when none is left, `fallback`. */
  answers: Answer[];
  fallback: Answer;
  /** Connections accepted (a request or not). */
  connections: number;
  close: () => Promise<void>;
};

export async function startReceiver(host = '127.0.0.1'): Promise<Receiver> {
  const r: Receiver = {
    origin: '',
    received: [],
    answers: [],
    fallback: { status: 200, body: '{"ok":true}' },
    connections: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const a = r.answers.shift() ?? r.fallback;
      res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) });
      res.end(a.body ?? '');
    });
  });
  server.on('connection', () => {
    r.connections++;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  r.origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return r;
}
