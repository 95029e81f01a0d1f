// The telephony module's public functions (the only file other modules import): the instant callback,
// scheduled calls and the carrier of a tenant. Calls, voice records and the report are in calls.ts.

// The reach rule lives in compliance (ADR 051); re-exported for the modules that call telephony.
export { assertReachable } from '../compliance/service.ts';
export { bookableSlots, carrierFor, installNumber as installCallNumber, MAX_SLOT_DAYS } from './access.ts';
export { requestCallback, scheduleCall } from './call-requests.ts';
export { type CallOfContact, callsOfContact, latestCallOf } from './contact-calls.ts';
export { addDemoNumber, DEMO_INSTALL_NUMBER } from './demo.ts';
export { type CallbackData, type CallbackInput, telephonyIdle } from './engine.ts';
export {
  callChanged,
  callCompleted,
  callMissed,
  callReceived,
  callRequested,
  numberChanged,
  voicemailRecorded,
} from './events.ts';
export { type LiveCallRow, liveCalls } from './live-calls.ts';
export { registrationNumbers, textNumbersOf } from './numbers-queries.ts';
export { callProgress } from './progress.ts';
export { reconcileCalls, startCallReconciler } from './reconcile.ts';
export { restoreSandboxNumbers } from './sandbox-restore.ts';
export { cancelScheduledCall, type ScheduleInput, scheduledCallJob } from './schedule.ts';
export { carrierAccountOf, installTextNumber, numberTexted } from './texting.ts';
export { TWILIO_PATHS } from './webhooks.ts';
