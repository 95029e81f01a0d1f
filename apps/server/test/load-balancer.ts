// A small load balancer for the tests and benches of several API processes (issue 27): plain node:http on
// 127.0.0.1, round robin over its backends, WebSocket upgrades included (the socket is piped both ways).
// A request may be pinned to one backend with the `x-lb-backend: <index>` header (removed before it is
// passed on). Every request is noted (which backend took it), so that a test can say where one went.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

export const PIN_HEADER = 'x-lb-backend';

export type LoadBalancer = {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** The backends' bases (http://127.0.0.1:<port>), by index. */
  backends: string[];
  /** What was passed on, oldest first: the backend's index, method and path. */
  routed: { backend: number; method: string; path: string; upgrade: boolean }[];
  close: () => Promise<void>;
};

export async function startLoadBalancer(backends: string[]): Promise<LoadBalancer> {
  if (backends.length === 0) throw new Error('no backends');
  const targets = backends.map((b) => new URL(b));
  const routed: LoadBalancer['routed'] = [];
  let next = 0;
  const pick = (headers: http.IncomingHttpHeaders): number => {
    const pinned = headers[PIN_HEADER];
    delete headers[PIN_HEADER];
    if (typeof pinned === 'string' && pinned !== '') {
      const i = Number(pinned);
      if (!Number.isInteger(i) || i < 0 || i >= targets.length) throw new Error(`no backend ${pinned}`);
      return i;
    }
    const i = next;
    next = (next + 1) % targets.length;
    return i;
  };
  /** X-Forwarded-For with the client's address added, as a proxy does (believed with TRUST_PROXY only). */
  const forwardedFor = (req: http.IncomingMessage): string => {
    const prior = req.headers['x-forwarded-for'];
    const client = req.socket.remoteAddress ?? '';
    const value = prior ? `${String(prior)}, ${client}` : client;
    req.headers['x-forwarded-for'] = value;
    return value;
  };
  // Kept alive to the backends, as a real balancer does.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const sockets = new Set<net.Socket>();

  const server = http.createServer((req, res) => {
    let i: number;
    try {
      i = pick(req.headers);
    } catch (err) {
      res.writeHead(400).end((err as Error).message);
      return;
    }
    const target = targets[i] as URL;
    routed.push({ backend: i, method: req.method ?? 'GET', path: req.url ?? '/', upgrade: false });
    forwardedFor(req);
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        // The Host header as the client sent it (webhook signatures cover the URL the caller used).
        headers: req.headers,
        agent,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502).end(`backend ${i}: ${err.message}`);
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on('upgrade', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    let i: number;
    try {
      i = pick(req.headers);
    } catch {
      client.destroy();
      return;
    }
    const target = targets[i] as URL;
    routed.push({ backend: i, method: req.method ?? 'GET', path: req.url ?? '/', upgrade: true });
    const xff = forwardedFor(req);
    const upstream = net.connect(Number(target.port), target.hostname, () => {
      // The request line and headers as received, then whatever followed them, then both ways.
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let k = 0; k < req.rawHeaders.length; k += 2)
        if (![PIN_HEADER, 'x-forwarded-for'].includes((req.rawHeaders[k] as string).toLowerCase()))
          lines.push(`${req.rawHeaders[k]}: ${req.rawHeaders[k + 1]}`);
      lines.push(`X-Forwarded-For: ${xff}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    backends,
    routed,
    close: async () => {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
