import type { ActionExecutor } from './types.ts';

/** Stub: replaced by its implementation (ADR 068). */
export const webhookAction: ActionExecutor = async () => ({ kind: 'fail', error: 'not built yet' });
