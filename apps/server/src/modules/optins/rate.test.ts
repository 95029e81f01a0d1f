// The opt-in form is a public write: limited per caller address (PUBLIC_CHECK_RATE_PER_ADDRESS a minute);
// over the limit it answers 429 and stores nothing. Its own app, with a small limit.
import { expect, it } from 'vitest';
import { rows, useSuite } from '../../../test/helpers.ts';

const MAIN = 'platform.test';
const c = useSuite({ env: { MAIN_DOMAIN: MAIN, PUBLIC_CHECK_RATE_PER_ADDRESS: '2' } });

it('answers 429 past the per-address limit and stores nothing', async () => {
  const send = (i: number) =>
    c.api.post(null, '/api/v1/agencies/optin-users', {
      email: `v${i}@example.org`,
      full_name: `Visitor ${i}`,
      business_name: 'Bakery',
      phone: '555-0100',
      domain: `agency-a.${MAIN}`,
    });
  expect((await send(1)).statusCode).toBe(200);
  expect((await send(2)).statusCode).toBe(200);
  const over = await send(3);
  expect(over.statusCode, over.body).toBe(429);
  expect(over.json()).toMatchObject({ success: false, code: 'TOO_MANY', reason: 'optins.throttle' });
  expect((await rows(c.t, 'select count(*)::int as n from optin_users'))[0].n).toBe(2);
});
