// What notifies the staff (ADR 082): telephony's missed calls, voicemails and widget requests (a callback or
// a scheduled call is a new lead), and chats' inbound texts. Each event enqueues one `alerts.notice` job
// (listeners run after the commit that caused the event), so the request that caused it never waits for
// mail, the carrier or a push service, and a failure is retried by the queue. Inbound texts are first
// sorted here: only those whose notice may send something are handed to a job (ADR 123).
import { businessBatcher } from '../../platform/batcher.ts';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { tenantContext } from '../../platform/tenancy/context.ts';
import { messageReceived } from '../chats/service.ts';
import { callMissed, callRequested, voicemailRecorded } from '../telephony/service.ts';
import { alertNoticeJob, alertNoticesJob } from './jobs.ts';
import { type TAlert, textsThatMayNotify } from './service.ts';

export function registerAlertsListeners(events: EventBus, deps: Deps): void {
  // Not awaited: the bus delivers to its listeners one after the other, and the others (the inbox, the
  // automations, the widget's progress) need not wait for this insert.
  const enqueue = (alert: TAlert): void => {
    deps.queue
      .send(deps.db, alertNoticeJob, alert)
      .then(() => deps.queue.committed(alertNoticeJob.name))
      .catch((err: unknown) => deps.log.error({ err, alert }, 'staff alert not enqueued'));
  };
  const ofCall = (p: { agencyId: number; businessId: number; installId: number; visitorPhone: string }) => ({
    agencyId: p.agencyId,
    businessId: p.businessId,
    installId: p.installId,
    phone: p.visitorPhone,
  });
  events.on(callMissed, (p) =>
    enqueue({ ...ofCall(p), kind: 'missed_call', name: p.visitorName, callId: p.callId }),
  );
  events.on(voicemailRecorded, (p) =>
    enqueue({
      ...ofCall(p),
      kind: 'voicemail',
      name: p.visitorName,
      callId: p.callId,
      voiceRecordId: p.voiceRecordId,
      duration: p.duration,
    }),
  );
  events.on(callRequested, (p) =>
    enqueue({
      ...ofCall(p),
      kind: p.kind === 'scheduled' ? 'booking' : 'callback',
      name: p.visitorName,
      callId: p.callId,
    }),
  );
  // The texts announced together (a batch of inbound texts) are decided here, in the process that saw them
  // (ADR 123): those whose notice may send something go to one `alerts.notices` job per business (a lone
  // one to its own `alerts.notice`, as any other event); the others, usually all of them while the staff
  // are online, cost no job. The job plans each notice again from the database before it writes it. A
  // decision that fails hands every text to the job, which retries.
  const notice = async (alerts: TAlert[]) => {
    const first = alerts[0];
    if (!first) return;
    if (alerts.length === 1) return enqueue(first);
    await deps.queue.send(deps.db, alertNoticesJob, {
      agencyId: first.agencyId,
      businessId: first.businessId,
      alerts,
    });
    deps.queue.committed(alertNoticesJob.name);
  };
  const texts = businessBatcher<TAlert>({
    run: async (alerts) => {
      const first = alerts[0];
      if (!first) return;
      const ctx = tenantContext(
        deps,
        { level: 'business', agencyId: first.agencyId, businessId: first.businessId },
        { kind: 'system', source: 'job', name: 'staff alerts' },
      );
      let noticed: TAlert[];
      try {
        noticed = await textsThatMayNotify(ctx, alerts);
      } catch (err) {
        deps.log.warn({ err, count: alerts.length }, 'staff alerts of texts not decided: handed to the job');
        noticed = alerts;
      }
      await notice(noticed);
    },
    onError: (err, alerts) => deps.log.error({ err, count: alerts.length }, 'staff alerts not enqueued'),
  });
  events.on(messageReceived, (p) => {
    // Keyword texts (STOP, HELP...) are answered by the platform; a text to no install has no settings.
    if (p.keyword || p.installId === null) return;
    // Not awaited, as `enqueue`: the other listeners need not wait for this insert.
    void texts.add({
      agencyId: p.agencyId,
      businessId: p.businessId,
      installId: p.installId,
      kind: 'message',
      // The job reads the contact's phone and name.
      phone: '',
      name: null,
      messageId: p.messageId,
      contactId: p.contactId,
    });
  });
}
