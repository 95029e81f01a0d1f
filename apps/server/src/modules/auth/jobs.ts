import { z } from 'zod';
import { defineJob } from '../../platform/queue/queue.ts';
import { linkHolderContext } from '../../platform/tenancy/context.ts';
import { requestPasswordReset } from './service.ts';

/**
 * "Forgot password", worked after the request: the route only enqueues this job (one insert, the same for
 * a known and an unknown address), so the answer's time tells nothing about the address. The job looks
 * the account up, issues the link and queues the mail (ADR 019).
 */
export const passwordResetRequestJob = defineJob({
  name: 'auth.password_reset_request',
  payload: z.object({ email: z.string().min(3).max(191) }),
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  async handler(deps, { email }) {
    await requestPasswordReset(linkHolderContext(deps, 'password.email'), { email });
  },
});
