// Card payments for an agency in the orders tests: a Stripe sandbox account's keys as its stripe-setting
// (what the agency's "Use the Stripe sandbox" does).
import { expect } from 'vitest';
import type { Suite } from '../../../test/helpers.ts';

export async function enableCardPayments(c: Suite, agencyId: number): Promise<void> {
  const sandbox = c.t.app.deps.payments.sandbox;
  if (!sandbox) throw new Error('the Stripe sandbox is off');
  const keys = await sandbox.createAccount();
  const res = await c.api.put(
    await c.token(c.seed.admin.email),
    `/api/v1/agencies/${agencyId}/stripe-setting`,
    {
      publicKey: keys.publishableKey,
      secretKey: keys.secretKey,
    },
  );
  expect(res.statusCode, res.body).toBe(200);
}
