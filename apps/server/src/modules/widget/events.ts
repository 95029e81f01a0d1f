// GET /api/widget/v1/events?token=&key=: the visitor's Server-Sent Events (ADR 041). `call` events follow
// the call their token names (finding, calling_you, connected, completed or missed; never backwards, the
// current state first, so a page that connects late still sees "connected"); `message` events carry the
// business's texts to the contact and their status changes. The realtime hub feeds it (with REDIS_URL,
// from whichever process handled the carrier's webhook or the agent's send). A comment line every 25 s
// keeps proxies from closing an idle stream; the stream ends when the token expires. Open streams are
// bounded per token and per address (a 429 beyond), and each releases its subscriptions when it ends.
import type { TWidgetCallStatus, TWidgetEvent } from '@stn/contracts/widget';
import type { FastifyInstance } from 'fastify';
import * as zm from 'zod/mini';
import type { Deps } from '../../platform/deps.ts';
import { AppError } from '../../platform/http/errors.ts';
import { channel } from '../../platform/realtime/hub.ts';
import { widgetOf } from '../../platform/widget/tree.ts';
import { callProgress } from '../telephony/service.ts';
import { widgetErrors } from './routes.ts';
import { verifyToken } from './token.ts';

export const HEARTBEAT_MS = 25_000;
/** Open streams one address may hold in this process (an office behind one address, each visitor a page). */
export const STREAMS_PER_ADDRESS = 20;
/** Open streams one token may hold (the same visitor's tabs). */
export const STREAMS_PER_TOKEN = 4;

/** Counts of open streams per key; a key leaves the map when its last stream ends. */
class OpenCount {
  private counts = new Map<string, number>();
  constructor(private limit: number) {}
  take(key: string): boolean {
    const n = this.counts.get(key) ?? 0;
    if (n >= this.limit) return false;
    this.counts.set(key, n + 1);
    return true;
  }
  release(key: string): void {
    const n = (this.counts.get(key) ?? 1) - 1;
    if (n <= 0) this.counts.delete(key);
    else this.counts.set(key, n);
  }
}

const tooMany = () => new AppError('TOO_MANY', 'widget.streams_too_many', undefined, {}, 'widget.streams');

const RANK: Record<TWidgetCallStatus, number> = {
  finding: 0,
  calling_you: 1,
  connected: 2,
  completed: 3,
  missed: 3,
};

export async function widgetEventRoutes(tree: FastifyInstance, deps: Deps): Promise<void> {
  // Streams open in this app, ended when it closes (an open stream would hold the server's close).
  const streams = new Set<() => void>();
  const perAddress = new OpenCount(STREAMS_PER_ADDRESS);
  const perToken = new OpenCount(STREAMS_PER_TOKEN);
  tree.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  tree.get(
    '/v1/events',
    {
      schema: {
        tags: ['widget'],
        summary: "Server-Sent Events of the visitor's call (`call`) and conversation (`message`)",
        querystring: zm.object({
          token: zm.string().check(zm.maxLength(1000)),
          key: zm.optional(zm.string()),
        }),
        // Lines of `event: call|message` and `data: <TWidgetEvent as JSON>`, written raw (never serialized).
        response: {
          200: { content: { 'text/event-stream': { schema: zm.string() } } },
          ...widgetErrors,
        },
      },
    },
    async (request, reply) => {
      const { install, ctx } = widgetOf(request);
      const given = (request.query as { token: string }).token;
      const token = verifyToken(ctx, given);
      // Streams are bounded before anything is held: a page that opens more gets a 429 that says why.
      const addressKey = request.ip;
      const tokenKey = given.slice(given.lastIndexOf('.') + 1);
      if (!perAddress.take(addressKey)) throw tooMany();
      if (!perToken.take(tokenKey)) {
        perAddress.release(addressKey);
        throw tooMany();
      }
      // A token that names neither a call nor a conversation (a bot's decoy) has nothing to follow.
      if (!token.callId && !token.contactId)
        throw new AppError('UNAUTHENTICATED', 'widget.token_no_conversation', undefined, {}, 'widget.token');
      const channels: string[] = [];
      if (token.callId) channels.push(channel.call(token.callId));
      if (token.contactId) channels.push(channel.widgetConversation(install.id, token.contactId));

      // The tree's CORS grant and the security headers were set on the reply; the stream is written raw.
      const headers: Record<string, string | number | string[]> = {};
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) headers[name] = value as string | number | string[];
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 3000\n\n');

      let callRank = -1;
      let ended = false;
      const send = (event: TWidgetEvent) => {
        if (ended) return;
        if (event.type === 'call') {
          if (event.call_id !== token.callId) return;
          const rank = RANK[event.status];
          if (rank <= callRank) return;
          callRank = rank;
        }
        // Only what followed the visitor's first text (the token's `since`), like /v1/conversation; and
        // nothing of the conversation before the phone is proven (ADR 048): the page already has what its
        // visitor typed, the rest may be someone else's.
        if (
          event.type === 'message' &&
          (!token.verified || Date.parse(event.message.created_at) < token.since)
        )
          return;
        raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      };
      // Subscribed before the current state is read: what happens meanwhile waits, then follows in order.
      let early: TWidgetEvent[] | null = [];
      const unsubscribe = deps.realtime.subscribe(channels, (message) => {
        const event = message.data as TWidgetEvent;
        if (early) early.push(event);
        else send(event);
      });
      const heartbeat = setInterval(() => {
        if (!ended) raw.write(': ping\n\n');
      }, HEARTBEAT_MS);
      const expiry = setTimeout(
        () => {
          if (!ended) raw.write('event: expired\ndata: {}\n\n');
          end();
        },
        Math.min(Math.max(0, token.expiresAt - Date.now()), 2 ** 31 - 1),
      );
      const end = () => {
        if (ended) return;
        ended = true;
        perAddress.release(addressKey);
        perToken.release(tokenKey);
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(expiry);
        streams.delete(end);
        raw.end();
      };
      streams.add(end);
      request.raw.on('close', end);
      raw.on('close', end);
      raw.on('error', end);
      // A client gone before the listeners were attached sends no 'close' any more.
      if (request.raw.socket?.destroyed) end();

      try {
        if (token.callId) {
          const status = await callProgress(ctx, { callId: token.callId });
          if (status) send({ type: 'call', call_id: token.callId, status });
        }
      } catch (err) {
        deps.log.warn({ err }, 'widget events: current call state not read');
      }
      const waiting = early;
      early = null;
      for (const event of waiting) send(event);
    },
  );
}
