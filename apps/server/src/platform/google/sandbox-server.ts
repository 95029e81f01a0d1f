// The Google stand-in (./sandbox.ts) as a real HTTP server on 127.0.0.1, for tests: the platform reaches it
// through GOOGLE_BASE_URL, the outbound guard and HTTP, as it would reach Google (ADR 091).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleStandIn, type GoogleStandInOptions } from './sandbox.ts';

export type GoogleStandInServer = { url: string; standIn: GoogleStandIn; close(): Promise<void> };

export async function startGoogleStandIn(options: GoogleStandInOptions = {}): Promise<GoogleStandInServer> {
  const standIn = new GoogleStandIn(options);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(',') : v;
      const answer = standIn.handle({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    standIn,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
