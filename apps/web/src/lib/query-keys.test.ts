import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { keys } from './query-keys.ts';

// A resource's invalidation (a mutation's today, a realtime event's later) must reach every query of that
// resource on every screen, and nothing of another resource.

/** Puts `key` in a fresh cache, invalidates `by`, and answers whether the query went stale. */
async function reaches(by: readonly unknown[], key: readonly unknown[]): Promise<boolean> {
  const client = new QueryClient();
  client.setQueryData(key, 1);
  await client.invalidateQueries({ queryKey: by });
  return client.getQueryState(key)?.isInvalidated ?? false;
}

describe('query keys per resource', () => {
  it("a resource's root invalidates its lists, details and paged list queries", async () => {
    const page = { page: 2, perPage: '10', keyword: '' };
    expect(await reaches(keys.agencies.all, [...keys.agencies.list('archived'), page])).toBe(true);
    expect(await reaches(keys.agencies.all, keys.agencies.detail(7))).toBe(true);
    expect(await reaches(keys.businesses.all, keys.businesses.own())).toBe(true);
    expect(await reaches(keys.businesses.all, [...keys.businesses.list('deleted'), page])).toBe(true);
    expect(await reaches(keys.plans.all, keys.plans.everything(3))).toBe(true);
    expect(await reaches(keys.releaseNotes.all, keys.releaseNotes.published(1))).toBe(true);
    expect(await reaches(keys.departments.all, keys.departments.access())).toBe(true);
    expect(await reaches(keys.installs.all, [...keys.installs.list('archived'), page])).toBe(true);
    expect(await reaches(keys.installs.all, keys.installs.embedCode(3))).toBe(true);
    expect(await reaches(keys.installs.all, keys.installs.canCreate())).toBe(true);
  });

  it('users are one resource with a kind: all users, or one kind only', async () => {
    expect(await reaches(keys.users.all, keys.users.detail('agency', 4))).toBe(true);
    expect(await reaches(keys.users.kind('business'), keys.users.agents('sms'))).toBe(true);
    expect(await reaches(keys.users.kind('business'), keys.users.list('global'))).toBe(false);
  });

  it("one resource's invalidation leaves the others alone", async () => {
    expect(await reaches(keys.agencies.all, keys.businesses.detail(7))).toBe(false);
    expect(await reaches(keys.plans.all, keys.packages.list())).toBe(false);
    expect(await reaches(keys.phoneLists.list('blacklist'), keys.phoneLists.list('whitelist'))).toBe(false);
    expect(await reaches(keys.installs.all, keys.installStats.all)).toBe(false);
  });
});
