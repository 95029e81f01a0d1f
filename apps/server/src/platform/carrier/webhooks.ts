/**
 * What a carrier tells us through its webhooks, in our own terms (ADR 056). The webhook tree checks the
 * provider's signature; then the carrier's adapter (CarrierWebhooks) parses the request into one of these
 * events, the module's handler decides, and the adapter renders the handler's call instructions in its
 * own language. Modules never read a carrier's form fields nor write its markup: a second carrier is a
 * second adapter.
 */
import type { FastifyRequest } from 'fastify';
import type { FormBody, WebhookInput, WebhookRegistry } from '../webhooks/tree.ts';
import type { CarrierErrorKind } from './carrier.ts';
import type { CallInstructions } from './instructions.ts';

/** A recording the carrier keeps, by its sid (fetched later by that sid, never by its URL: ADR 049). */
export type RecordingRef = { sid: string; url: string };

/** A call (or a leg of one) asks what to do: an inbound call, or a leg we placed that was answered. */
export type CallAsks = {
  accountSid: string;
  callSid: string;
  /** The call that created this leg (a dial's child), or ''. */
  parentCallSid: string;
  from: string;
  to: string;
  /** Who answered when machine detection was asked (human, machine_start, fax...), or ''. */
  answeredBy: string;
  /** A voicemail, an answering machine or a fax answered, not a person. */
  byMachine: boolean;
};

/** The keys pressed during a gather ('' when none). */
export type DigitsGathered = { accountSid: string; callSid: string; digits: string };

/** A leg's progress: queued ... completed, in the carrier's order (`sequence`, -1 when not given). */
export type CallProgress = {
  accountSid: string;
  callSid: string;
  parentCallSid: string;
  to: string;
  status: string;
  sequence: number;
  duration: number | null;
  answeredBy: string | null;
};

/** A dial ended: the bridged call is over, or nobody answered. */
export type DialEnded = {
  accountSid: string;
  callSid: string;
  /** The dialled party answered. */
  completed: boolean;
  duration: number | null;
  recording: RecordingRef | null;
};

/** A recording is ready (or reports another state: `completed` false). */
export type RecordingReady = {
  accountSid: string;
  callSid: string;
  completed: boolean;
  recording: RecordingRef | null;
  duration: number | null;
};

/** A text (SMS, or MMS with media) arrived on one of our numbers. */
export type InboundText = {
  accountSid: string;
  messageSid: string;
  from: string;
  to: string;
  body: string;
  media: { url: string; contentType: string }[];
  /** The carrier's time of the message, when it gave one. */
  sentAt: Date | null;
};

/** An outgoing text's progress (queued, sent, delivered, failed...) with the carrier's error, if any. */
export type MessageProgress = {
  accountSid: string;
  messageSid: string;
  status: string;
  /** The carrier's own error code, kept on the message as the carrier gave it. */
  errorCode: number | null;
  errorMessage: string | null;
  errorKind: CarrierErrorKind | null;
};

/** The carrier's verification call of a caller id ended. */
export type NumberVerification = { accountSid: string; phone: string; verified: boolean };

/**
 * A registration's status changed at the carrier (a customer profile, brand, campaign or toll-free
 * verification): its sid; the handler asks the carrier for the rest.
 */
export type RegistrationStatus = { accountSid: string; sid: string; status: string };

export type CarrierEvents = {
  call: CallAsks;
  digits: DigitsGathered;
  'call-progress': CallProgress;
  'dial-ended': DialEnded;
  recording: RecordingReady;
  'text-in': InboundText;
  'text-progress': MessageProgress;
  'number-verification': NumberVerification;
  'registration-status': RegistrationStatus;
};
export type CarrierEventKind = keyof CarrierEvents;

/** A webhook request as the tree received it (signature already checked). */
export type WebhookRequest = { body: FormBody; url: string; headers: FastifyRequest['headers'] };

/** The inbound half of a carrier's adapter. */
export interface CarrierWebhooks {
  /** The webhook tree's provider that checks this carrier's signatures. */
  readonly provider: string;
  parse<K extends CarrierEventKind>(kind: K, request: WebhookRequest): CarrierEvents[K];
  /** The answer the carrier reads: its content type and body. */
  render(instructions: CallInstructions): { type: string; body: string };
}

/** Our own query parameters on the webhook URLs we give the carrier (?call=12&leg=staff...). */
export type WebhookQuery = Record<string, string | undefined>;

/**
 * A carrier webhook route: the adapter parses the request into the event of `kind`, the handler answers
 * call instructions (or nothing: an empty answer), the adapter renders them.
 */
export function carrierRoute<K extends CarrierEventKind>(
  registry: WebhookRegistry,
  adapter: CarrierWebhooks,
  route: {
    url: string;
    kind: K;
    handle(event: CarrierEvents[K], query: WebhookQuery): Promise<CallInstructions | undefined>;
  },
): void {
  const answer = async (input: WebhookInput) => {
    const event = adapter.parse(route.kind, { body: input.body, url: input.url, headers: input.headers });
    return adapter.render((await route.handle(event, input.query as WebhookQuery)) ?? []);
  };
  registry.route({
    method: 'POST',
    url: route.url,
    provider: adapter.provider,
    async handler(request, reply) {
      const a = await answer({
        body: (request.body && typeof request.body === 'object' ? request.body : {}) as FormBody,
        url: request.webhookUrl ?? '',
        headers: request.headers,
        query: (request.query ?? {}) as WebhookInput['query'],
      });
      return reply.type(a.type).send(a.body);
    },
    // The same answer through the direct intake (ADR 116).
    direct: answer,
  });
}
