// The staff phone of a business user (issue 9): the number a voice agent is rung on, kept in E.164.
import { beforeAll, describe, expect, it } from 'vitest';
import { expect422, rows, snapshot, useSuite } from '../../../test/helpers.ts';

const c = useSuite();
const base = '/api/v1/businesses/users';
const admin = () => c.token(c.seed.a.businessAdmin.email);
const newUser = (over: Record<string, unknown> = {}) => ({
  first_name: 'Vic',
  last_name: 'Voice',
  email: `voice${Math.random().toString(36).slice(2, 8)}@a.test`,
  password: 'a-good-password',
  password_confirmation: 'a-good-password',
  role: 'BusinessUser',
  user_type: '3',
  agent_type: 'voiceAgent',
  ...over,
});

beforeAll(async () => {
  await c.t.pool.query('update businesses set number_of_users = 20');
});

describe('the phone of a business user', () => {
  it('is stored in E.164 on create, shown on the user and the agent pickers, kept by an edit without it', async () => {
    const res = await c.api.post(await admin(), base, newUser({ phone: '(500) 555-0123' }));
    expect(res.statusCode, res.body).toBe(200);
    const user = res.json().data;
    expect(user.phone).toBe('+15005550123');
    expect((await rows(c.t, 'select phone from users where id = $1', [user.id]))[0].phone).toBe(
      '+15005550123',
    );
    const agents = await c.api.get(await admin(), `${base}/agents?channel=voice`);
    expect(agents.json().data.find((u: { id: number }) => u.id === user.id)?.phone).toBe('+15005550123');
    const { password: _p, password_confirmation: _c, ...edit } = newUser({ email: user.email });
    const kept = await c.api.put(await admin(), `${base}/${user.id}`, edit);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data.phone).toBe('+15005550123');
    const changed = await c.api.put(await admin(), `${base}/${user.id}`, {
      ...edit,
      phone: '+44 20 7946 0958',
    });
    expect(changed.json().data.phone).toBe('+442079460958');
    const cleared = await c.api.put(await admin(), `${base}/${user.id}`, { ...edit, phone: null });
    expect(cleared.json().data.phone).toBeNull();
  });

  it("refuses a phone that is not one: 'Wrong phone number format!!', nothing saved", async () => {
    const before = await snapshot(c.t.pool, ['users']);
    expect422(
      await c.api.post(await admin(), base, newUser({ phone: 'abc' })),
      'phone',
      'Wrong phone number format!!',
    );
    const [{ id }] = await rows(c.t, 'select id from users where business_id = $1 order by id limit 1', [
      c.seed.a.business.id,
    ]);
    expect422(
      await c.api.put(await admin(), `${base}/${id}`, {
        first_name: 'X',
        email: 'bizadmin@a.test',
        phone: '12',
      }),
      'phone',
      'Wrong phone number format!!',
    );
    expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
  });
});
