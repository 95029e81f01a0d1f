// What notifies the staff (ADR 082): telephony's missed calls, voicemails and widget requests (a callback or
// a scheduled call is a new lead), and chats' inbound texts. Each event's notice is worked in this process
// after the commit that caused it (ADR 123): mail, the carrier and push services are jobs of their own, and
// a notice that fails is retried by the queue.
import { businessBatcher } from '../../platform/batcher.ts';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { businessSystemContext } from '../../platform/tenancy/context.ts';
import { messageReceived } from '../chats/service.ts';
import { callMissed, callRequested, voicemailRecorded } from '../telephony/service.ts';
import { alertNoticesJob, noticeBatch } from './jobs.ts';
import type { TAlert } from './service.ts';

export function registerAlertsListeners(events: EventBus, deps: Deps): void {
  // Every notice of a business is worked here, in the process that saw its event, in the events' order
  // (ADR 123): the e-mails written to the outbox and the text and push enqueued in one transaction, after
  // the commit that caused the event (listeners run then). A text nobody is to be told of (someone who may
  // see it is online) writes nothing. A notice that fails is handed to a job, which retries it; a batch
  // whose reads fail, whole. Not awaited: the request that caused the event never waits for it, and the
  // bus's other listeners (the inbox, the automations, the widget's progress) need not either.
  const notices = businessBatcher<TAlert>({
    run: async (alerts) => {
      const first = alerts[0];
      if (!first) return;
      const ctx = businessSystemContext(deps, first, 'job', 'staff alerts');
      try {
        await noticeBatch(ctx, alerts);
      } catch (err) {
        deps.log.warn({ err, count: alerts.length }, 'staff alerts not worked: handed to the job');
        await deps.queue.send(deps.db, alertNoticesJob, {
          agencyId: first.agencyId,
          businessId: first.businessId,
          alerts,
        });
        deps.queue.committed(alertNoticesJob.name);
      }
    },
    onError: (err, alerts) => deps.log.error({ err, count: alerts.length }, 'staff alerts not enqueued'),
  });
  const notice = (alert: TAlert): void => {
    void notices.add(alert);
  };
  const ofCall = (p: { agencyId: number; businessId: number; installId: number; visitorPhone: string }) => ({
    agencyId: p.agencyId,
    businessId: p.businessId,
    installId: p.installId,
    phone: p.visitorPhone,
  });
  events.on(callMissed, (p) =>
    notice({ ...ofCall(p), kind: 'missed_call', name: p.visitorName, callId: p.callId }),
  );
  events.on(voicemailRecorded, (p) =>
    notice({
      ...ofCall(p),
      kind: 'voicemail',
      name: p.visitorName,
      callId: p.callId,
      voiceRecordId: p.voiceRecordId,
      duration: p.duration,
    }),
  );
  events.on(callRequested, (p) =>
    notice({
      ...ofCall(p),
      kind: p.kind === 'scheduled' ? 'booking' : 'callback',
      name: p.visitorName,
      callId: p.callId,
    }),
  );
  events.on(messageReceived, (p) => {
    // Keyword texts (STOP, HELP...) are answered by the platform; a text to no install has no settings.
    if (p.keyword || p.installId === null) return;
    notice({
      agencyId: p.agencyId,
      businessId: p.businessId,
      installId: p.installId,
      kind: 'message',
      // The notice reads the contact's phone and name.
      phone: '',
      name: null,
      messageId: p.messageId,
      contactId: p.contactId,
    });
  });
}
