import { describe, expect, it } from 'vitest';
import { avatarInitials } from './avatar-initials.ts';

describe('avatarInitials (spec 000 §3)', () => {
  it('takes the first letters of first and last name, upper-cased', () => {
    expect(avatarInitials('jane', 'doe')).toBe('JD');
    expect(avatarInitials('  Ángel ', ' Óscar')).toBe('ÁÓ');
  });
  it('uses what there is when one name is missing', () => {
    expect(avatarInitials('Jane', '')).toBe('J');
    expect(avatarInitials(null, 'Doe')).toBe('D');
  });
  it("answers '?' without any name", () => {
    expect(avatarInitials('', '  ')).toBe('?');
    expect(avatarInitials(undefined, null)).toBe('?');
  });
});
