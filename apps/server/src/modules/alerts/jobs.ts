// The staff notifications' jobs (ADR 082): the notice of one event, then its text and its push, each
// retried on its own. Every job builds the business's context from its payload (ADR 012). The notices are
// worked first in the process that saw their events (ADR 123): `alerts.notice` and `alerts.notices` retry
// those that failed there.
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { defineJob } from '../../platform/queue/queue.ts';
import { businessSystemContext, type Ctx } from '../../platform/tenancy/context.ts';
import {
  noticeAlert,
  noticeAlertOfBatch,
  prepareAlerts,
  sendAlertPush,
  sendAlertText,
  type TAlert,
  ZAlert,
} from './service.ts';

const businessCtx = (deps: Deps, p: { agencyId: number; businessId: number }, name: string): Ctx =>
  businessSystemContext(deps, p, 'job', name);

const keys = { agencyId: z.number(), businessId: z.number() };

export const alertTextJob = defineJob({
  name: 'alerts.text',
  payload: z.object({ ...keys, to: z.string(), from: z.string(), body: z.string() }),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  handler: async (deps, p) => {
    await sendAlertText(businessCtx(deps, p, 'staff alert text'), { to: p.to, from: p.from, body: p.body });
  },
});

export const alertPushJob = defineJob({
  name: 'alerts.push',
  payload: z.object({
    ...keys,
    userIds: z.array(z.number()),
    title: z.string(),
    body: z.string(),
    url: z.string(),
    tag: z.string(),
  }),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  handler: async (deps, p) => {
    const { agencyId: _a, businessId: _b, ...push } = p;
    await sendAlertPush(businessCtx(deps, p, 'staff alert push'), push);
  },
});

export const alertNoticeJob = defineJob({
  name: 'alerts.notice',
  payload: ZAlert,
  // The notice writes everything in one transaction: a retry never e-mails twice.
  retry: { limit: 3, delaySeconds: 20, backoff: true },
  concurrency: 2,
  handler: async (deps, p) => {
    const keysOf = { agencyId: p.agencyId, businessId: p.businessId };
    await noticeAlert(businessCtx(deps, p, 'staff alert'), p, {
      text: (tx, sms) => tx.deps.queue.send(tx.db, alertTextJob, { ...keysOf, ...sms }),
      push: (tx, push) => tx.deps.queue.send(tx.db, alertPushJob, { ...keysOf, ...push }),
    });
  },
});

/**
 * The notices of many events of one business at once: what they share is read once (./service.ts
 * prepareAlerts), then each notice is written as `alerts.notice` writes it. A notice that fails is handed
 * to an `alerts.notice` job of its own (retried alone), so this never repeats a notice already written.
 * The listeners run it in the process that saw the events (ADR 123); `alerts.notices` runs it again for a
 * batch whose reads failed there.
 */
export async function noticeBatch(ctx: Ctx, alerts: TAlert[]): Promise<void> {
  const first = alerts[0];
  if (!first) return;
  const { deps } = ctx;
  const keysOf = { agencyId: first.agencyId, businessId: first.businessId };
  const batch = await prepareAlerts(ctx, alerts);
  let handedOver = false;
  for (const a of alerts) {
    try {
      await noticeAlertOfBatch(ctx, a, batch, {
        text: (tx, sms) => tx.deps.queue.send(tx.db, alertTextJob, { ...keysOf, ...sms }),
        push: (tx, push) => tx.deps.queue.send(tx.db, alertPushJob, { ...keysOf, ...push }),
      });
    } catch (err) {
      deps.log.warn({ err }, 'staff alert of a batch failed: retried on its own');
      await deps.queue.send(deps.db, alertNoticeJob, a);
      handedOver = true;
    }
  }
  if (handedOver) deps.queue.committed(alertNoticeJob.name);
}

export const alertNoticesJob = defineJob({
  name: 'alerts.notices',
  payload: z.object({ ...keys, alerts: z.array(ZAlert) }),
  retry: { limit: 3, delaySeconds: 20, backoff: true },
  concurrency: 2,
  handler: async (deps, p) => {
    await noticeBatch(businessCtx(deps, p, 'staff alerts'), p.alerts);
  },
});
