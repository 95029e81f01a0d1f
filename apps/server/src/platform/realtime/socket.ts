// The /ws tree: one WebSocket per signed-in browser. A browser cannot set an Authorization header on a
// WebSocket, so the bearer token also comes as a subprotocol (`new WebSocket(url, ['bearer', token])`)
// or a `token` query parameter. The channels come from the actor, never from the client (ADR 015).
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveActor, type SessionHolder } from '../auth/plugin.ts';
import { sessionsEnded } from '../auth/sessions.ts';
import type { Db } from '../db/client.ts';
import type { EventBus } from '../events/events.ts';
import { channel, channelsOf, type Hub, type RealtimeMessage } from './hub.ts';

const SUBPROTOCOL = 'bearer';
/** The close code of a socket whose session ended or expired (the web app does not reconnect with it). */
export const SESSION_ENDED = 4001;
/** setTimeout's longest delay; a session expiring later is checked again then. */
const MAX_TIMER_MS = 2_147_483_647;
/** News kept for a socket while its session is checked again (more is dropped: the page reloads lists). */
const MAX_PENDING = 100;

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim();
  const protocols = String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const i = protocols.indexOf(SUBPROTOCOL);
  if (i >= 0 && protocols[i + 1]) return protocols[i + 1];
  const query = (request.query as { token?: unknown } | undefined)?.token;
  return typeof query === 'string' && query ? query : undefined;
}

export async function socketTree(
  app: FastifyInstance,
  opts: { db: Db; hub: Hub; holder: SessionHolder; events: EventBus },
): Promise<void> {
  // A session ended in any process (ADR 050): its sockets, in every process, hear it on the session's
  // channel (through Redis when REDIS_URL is set) and close.
  opts.events.on(sessionsEnded, async ({ tokenIds }) => {
    await Promise.all(tokenIds.map((id) => opts.hub.publish(channel.session(id), { type: 'session_ended' })));
  });

  await app.register(websocket, {
    options: {
      maxPayload: 64 * 1024,
      // Answer the `bearer` subprotocol when offered, as browsers require; never echo the token.
      handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
    },
  });

  app.get(
    '/ws',
    {
      websocket: true,
      // Refused before the upgrade: no socket is opened without a live session.
      preValidation: async (request, reply) => {
        const token = tokenOf(request);
        const resolved =
          token && token.length <= 200 ? await resolveActor(opts.db, opts.holder, token) : null;
        if (!resolved) return reply.code(401).send({ success: false, code: 'UNAUTHENTICATED' });
        request.actor = resolved.actor;
      },
    },
    async (socket, request) => {
      const actor = request.actor;
      const token = tokenOf(request);
      if (!actor || !token) return socket.close(1008);
      const channels = channelsOf(actor);
      // The news of one moment (a batch of texts announces its messages in one loop) leaves in one write:
      // the connection is corked at the first and uncorked once this tick's work is done. A write to a
      // socket is a system call, and on loopback the kernel's TCP work is paid inside it (issue 27).
      const connection = request.raw.socket;
      // A socket made by `injectWS` (light-my-request) has no cork: its messages go one by one.
      const corks = typeof connection?.cork === 'function';
      let corked = false;
      const send = (message: RealtimeMessage) => {
        if (corks && !corked) {
          corked = true;
          connection.cork();
          process.nextTick(() => {
            corked = false;
            connection.uncork();
          });
        }
        socket.send(JSON.stringify(message));
      };
      // Until the session is checked again below, news waits here (a few at most: it takes milliseconds).
      let pending: RealtimeMessage[] | null = [];
      const unsubscribe = opts.hub.subscribe(channels, (message) => {
        if (pending) {
          if (pending.length < MAX_PENDING) pending.push(message);
        } else if (socket.readyState === socket.OPEN) send(message);
      });
      // The socket lives no longer than its session: closed when the session ends or expires.
      const end = () => socket.close(SESSION_ENDED, 'session ended');
      const unsubscribeSession = opts.hub.subscribe([channel.session(actor.tokenId)], end);
      let expiry: NodeJS.Timeout | undefined;
      const watchExpiry = () => {
        const left = actor.expiresAt.getTime() - Date.now();
        if (left <= 0) return end();
        expiry = setTimeout(watchExpiry, Math.min(left, MAX_TIMER_MS));
      };
      socket.on('close', () => {
        unsubscribe();
        unsubscribeSession();
        clearTimeout(expiry);
      });
      // The client only listens: what it sends is not a way in to anything.
      socket.on('message', () => undefined);
      // The session was checked before the upgrade, but a logout (or a lock-out) announced between that
      // check and these subscriptions reached nobody. So, once the hub hears the session's channel (with
      // Redis: once the subscription is confirmed), the session is checked again: from then on its end is
      // heard, and before it, it is seen here.
      try {
        await opts.hub.ready();
        if (!(await resolveActor(opts.db, opts.holder, token))) return end();
      } catch (err) {
        request.log.warn({ err }, 'realtime: the session could not be checked again');
        return socket.close(1011);
      }
      if (socket.readyState !== socket.OPEN) return;
      watchExpiry();
      send({ type: 'ready', data: { channels } });
      const waiting = pending;
      pending = null;
      for (const message of waiting) send(message);
    },
  );
}
