import { describe, expect, it } from 'vitest';
import { sameUser } from './same-user.ts';

describe('sameUser', () => {
  it('is true only for a user with the stored id', () => {
    expect(sameUser({ id: 7 }, { id: 7, role_group: 'Business' })).toBe(true);
    expect(sameUser({ id: 7 }, { id: 8, role_group: 'Business' })).toBe(false);
    // an agency cancelling one of its businesses gets that business's user back
    expect(sameUser({ id: 7 }, { id: '7', role_group: 'Business' })).toBe(false);
    expect(sameUser({ id: 7 }, null)).toBe(false);
    expect(sameUser({ id: 7 }, { id: 7 })).toBe(false);
    expect(sameUser(null, { id: 7, role_group: 'Business' })).toBe(false);
  });
});
