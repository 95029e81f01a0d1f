import { describe, expect, it } from 'vitest';
import { localRedirect } from './local-redirect.ts';

describe('localRedirect', () => {
  it("keeps this app's paths and drops anything that leaves it", () => {
    expect(localRedirect('/business/subscriptions?x=1')).toBe('/business/subscriptions?x=1');
    expect(localRedirect('//evil.test/x')).toBeNull();
    expect(localRedirect('/\\evil.test')).toBeNull();
    expect(localRedirect('https://evil.test')).toBeNull();
    expect(localRedirect(null)).toBeNull();
  });
});
