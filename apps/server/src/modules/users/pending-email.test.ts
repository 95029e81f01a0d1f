// Issue 17 / ADR 050: a manager who changes someone's e-mail sees that it waits for confirmation. The
// answers of a user edit (business users, agency users, global users: GET and PUT by id) carry
// `pending_email` like the profile: the new address until its link is followed, then null.
import { describe, expect, it } from 'vitest';
import { addBusinessUser, confirmEmailChange, useSuite } from '../../../test/helpers.ts';

const c = useSuite();

type Kind = {
  name: string;
  /** The manager's e-mail. */
  manager: () => string;
  /** A user the manager may edit: its id and the PUT body without the e-mail. */
  target: () => Promise<{ id: number; body: Record<string, unknown> }>;
  base: string;
  next: string;
};

/** A user created by `manager` through `url`; the PUT body is what it was created with, less the keys. */
async function created(url: string, manager: string, fields: Record<string, string>) {
  const password = { password: 'a-good-password', password_confirmation: 'a-good-password' };
  const res = await c.api.post(await c.token(manager), url, { ...fields, ...password });
  expect(res.statusCode, res.body).toBe(200);
  const { email: _email, ...body } = fields;
  return { id: res.json().data.id as number, body };
}

const KINDS: Kind[] = [
  {
    name: 'business users',
    manager: () => c.seed.a.businessAdmin.email,
    target: async () => ({
      id: (await addBusinessUser(c.t, c.seed.a.business.id, 'pending-biz@a.test', '3')).id,
      body: { first_name: 'Pat', last_name: 'Pending', role: 'BusinessUser', user_type: '3' },
    }),
    base: '/api/v1/businesses/users',
    next: 'pending-biz.next@a.test',
  },
  {
    name: 'agency users',
    manager: () => c.seed.a.agencyAdmin.email,
    target: () =>
      created('/api/v1/agency/users', c.seed.a.agencyAdmin.email, {
        email: 'pending-staff@a.test',
        first_name: 'Pat',
        last_name: 'Staff',
        user_type: '1',
      }),
    base: '/api/v1/agency/users',
    next: 'pending-staff.next@a.test',
  },
  {
    name: 'global users',
    manager: () => c.seed.superAdmin.email,
    target: () =>
      created('/api/v1/users', c.seed.superAdmin.email, {
        email: 'pending-admin@main.test',
        first_name: 'Pat',
        last_name: 'Admin',
        role: 'Admin',
      }),
    base: '/api/v1/users',
    next: 'pending-admin.next@main.test',
  },
];

describe('user edits answer the e-mail address waiting for confirmation', () => {
  for (const kind of KINDS) {
    it(`${kind.name}: PUT and GET by id carry pending_email until the link is followed`, async () => {
      const token = await c.token(kind.manager());
      const { id, body } = await kind.target();
      const url = `${kind.base}/${id}`;

      const before = await c.api.get(token, url);
      expect(before.statusCode, before.body).toBe(200);
      const current = before.json().data.email as string;
      expect(before.json().data).toMatchObject({ pending_email: null });

      const put = await c.api.put(token, url, { ...body, email: kind.next });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json().data).toMatchObject({ email: current, pending_email: kind.next });
      expect((await c.api.get(token, url)).json().data).toMatchObject({
        email: current,
        pending_email: kind.next,
      });

      // Saving the form again with the current address leaves the pending change as it is.
      const again = await c.api.put(token, url, { ...body, email: current });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data).toMatchObject({ email: current, pending_email: kind.next });

      await confirmEmailChange(c.t, kind.next);
      expect((await c.api.get(token, url)).json().data).toMatchObject({
        email: kind.next,
        pending_email: null,
      });
    });
  }
});
