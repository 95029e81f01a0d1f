// Helpers of the widget's tests: the visitor's event stream read as a browser's EventSource would, and the
// visitor context tokens are signed in.
import type { TWidgetEvent } from '@stn/contracts/widget';
import type { Seed, TestApp } from '../../../test/helpers.ts';
import { visitorContext } from '../../platform/widget/tree.ts';

export const SITE = 'https://dental.example.test';

export type Stream = {
  events: { event: string; data: TWidgetEvent }[];
  headers: Headers;
  status: number;
  /** Resolves once `n` events have arrived (or rejects after a while). */
  until: (n: number) => Promise<void>;
  closed: Promise<void>;
  close: () => void;
};

/** Opens the stream as a browser's EventSource would, and parses what comes. */
export async function openStream(base: string, key: string, token: string): Promise<Stream> {
  const abort = new AbortController();
  const res = await fetch(
    `${base}/api/widget/v1/events?token=${encodeURIComponent(token)}&key=${encodeURIComponent(key)}`,
    { headers: { origin: SITE, accept: 'text/event-stream' }, signal: abort.signal },
  );
  const events: Stream['events'] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters])
      if (events.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  const closed = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let at = buffer.indexOf('\n\n');
        while (at >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const lines = block.split('\n');
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
          if (event && data) events.push({ event, data: JSON.parse(data) });
          check();
          at = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    headers: res.headers,
    status: res.status,
    until: (n) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ n, resolve });
        check();
        setTimeout(
          () => reject(new Error(`only ${events.length} events: ${JSON.stringify(events)}`)),
          10_000,
        );
      }),
    closed,
    close: () => abort.abort(),
  };
}

/** The context of a visitor of an install of tenant A, to sign tokens as the server does. */
export const visitorOf = (h: { t: TestApp; seed: Seed }, install: { id: number }) =>
  visitorContext(h.t.app.deps, {
    id: install.id,
    agencyId: h.seed.a.agency.id,
    businessId: h.seed.a.business.id,
  });
