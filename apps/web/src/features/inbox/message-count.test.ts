import { describe, expect, it } from 'vitest';
import { canCancel, canResend, messageCount, messageErrorKey, statusColor } from './message-count.ts';

describe('message counter (spec 000 §4)', () => {
  it('counts ceil(length / 160), at least one', () => {
    expect(messageCount('', 0)).toBe(1);
    expect(messageCount('a'.repeat(160), 0)).toBe(1);
    expect(messageCount('a'.repeat(161), 0)).toBe(2);
    expect(messageCount('a'.repeat(321), 0)).toBe(3);
  });
  it('counts 3 for an outgoing message with images', () => {
    expect(messageCount('hello', 1)).toBe(3);
  });
  it('knows what may be resent or cancelled', () => {
    expect(canResend('failed')).toBe(true);
    expect(canResend('refused')).toBe(true);
    expect(canResend('delivered')).toBe(false);
    expect(canCancel('scheduled')).toBe(true);
    expect(statusColor('delivered')).toBe('green');
  });
  it("tells the server's text keys from the carrier's words", () => {
    expect(messageErrorKey('messages.opted_out')).toBe('messages.opted_out');
    expect(messageErrorKey('Unreachable destination handset')).toBeNull();
    expect(messageErrorKey('The carrier could not be reached: fetch failed')).toBeNull();
    expect(messageErrorKey(null)).toBeNull();
  });
});
