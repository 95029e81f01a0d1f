import { describe, expect, it } from 'vitest';
import { expect403, useSuite } from '../../../test/helpers.ts';

// What's new (issue 23): an agency admin sees the release notes published since the newest one it has
// seen, once each; drafts never; other roles may not ask.

const c = useSuite({ sessions: true });

async function publish(title: string) {
  const res = await c.call(c.s.superAdmin.token, 'POST', '/v1/release-notes', {
    title,
    content: `${title} text`,
    published: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; published_at: string };
}

describe("what's new", () => {
  it('shows unseen published notes newest first, once each', async () => {
    const admin = c.s.a.agencyAdmin.token;
    const first = await publish('Faster inbox');
    const second = await publish('Broadcast reports');
    await c.call(c.s.superAdmin.token, 'POST', '/v1/release-notes', {
      title: 'Draft',
      content: 'x',
      published: false,
    });
    const unread = await c.call(admin, 'GET', '/v1/release-notes/unread');
    expect(unread.statusCode, unread.body).toBe(200);
    expect(unread.json().data.map((n: { id: number }) => n.id)).toEqual([second.id, first.id]);

    const read = await c.call(admin, 'POST', '/v1/release-notes/read', { up_to: second.published_at });
    expect(read.statusCode, read.body).toBe(200);
    expect((await c.call(admin, 'GET', '/v1/release-notes/unread')).json().data).toEqual([]);
    // Marking an older time never brings them back.
    await c.call(admin, 'POST', '/v1/release-notes/read', { up_to: first.published_at });
    expect((await c.call(admin, 'GET', '/v1/release-notes/unread')).json().data).toEqual([]);

    const third = await publish('Automations');
    expect(
      (await c.call(admin, 'GET', '/v1/release-notes/unread')).json().data.map((n: { id: number }) => n.id),
    ).toEqual([third.id]);
    // Another agency admin has seen nothing yet.
    expect(
      (await c.call(c.s.b.agencyAdmin.token, 'GET', '/v1/release-notes/unread')).json().data,
    ).toHaveLength(3);
  });

  it('is for agency admins only, and wants a time', async () => {
    await expect403(c.t, ['users'], c.s.a.accountManager.token, 'GET', '/v1/release-notes/unread');
    await expect403(c.t, ['users'], c.s.a.businessAdmin.token, 'POST', '/v1/release-notes/read', {
      up_to: new Date().toISOString(),
    });
    const bad = await c.call(c.s.a.agencyAdmin.token, 'POST', '/v1/release-notes/read', {
      up_to: 'yesterday',
    });
    expect(bad.statusCode).toBe(422);
  });
});
