// The spec's display formats (spec 000 §9): dates in four formats with 'N/A' when empty, file sizes in
// Bytes to YB, base 1024, 2 decimals. The formats are the contracts'; lib/format.ts only adds the app's
// language, so they are tested here through the contracts (node, no browser).
import { formatDate, formatSize, pruneText } from '@stn/contracts/format';
import { describe, expect, it } from 'vitest';

// 3 November 2026, 3:05 pm, in the viewer's time zone (as screens show it).
const afternoon = new Date(2026, 10, 3, 15, 5);
const midnight = new Date(2026, 0, 22, 0, 0);

describe('formatDate', () => {
  it('writes the spec formats in English', () => {
    expect(formatDate(afternoon, 'short', 'en')).toBe('3:05pm 11/03');
    expect(formatDate(afternoon, 'long', 'en')).toBe('3:05pm November 03, 2026');
    expect(formatDate(afternoon, 'date', 'en')).toBe('11-03 2026');
    expect(formatDate(afternoon, 'birthday', 'en')).toBe('Nov 3rd');
    expect(formatDate(midnight, 'short', 'en')).toBe('12:00am 01/22');
    expect(formatDate(midnight, 'birthday', 'en')).toBe('Jan 22nd');
    expect(formatDate(new Date(2026, 0, 11), 'birthday', 'en')).toBe('Jan 11th');
    expect(formatDate(new Date(2026, 0, 1), 'birthday', 'en')).toBe('Jan 1st');
  });

  it('names months in the viewer language', () => {
    expect(formatDate(afternoon, 'long', 'es')).toBe('3:05pm noviembre 03, 2026');
    expect(formatDate(afternoon, 'long', 'br')).toBe('3:05pm novembro 03, 2026');
    expect(formatDate(afternoon, 'birthday', 'es')).toBe('nov 3º');
  });

  it('takes ISO strings and epoch milliseconds', () => {
    expect(formatDate(afternoon.toISOString(), 'date', 'en')).toBe('11-03 2026');
    expect(formatDate(afternoon.getTime(), 'short', 'en')).toBe('3:05pm 11/03');
  });

  it.each([null, undefined, '', 'not a date'])('shows N/A for %s', (value) => {
    expect(formatDate(value, 'date', 'en')).toBe('N/A');
    expect(formatDate(value, 'long', 'es')).toBe('N/A');
  });
});

describe('formatSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [512 * 1024, '512 KB'],
    [1024 * 1024, '1 MB'],
    [1234567, '1.18 MB'],
    [5 * 1024 ** 3, '5 GB'],
    [1024 ** 8, '1 YB'],
    [1024 ** 9, '1024 YB'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});

describe('pruneText (spec 000 §9: text prunes at 38 characters)', () => {
  it('keeps a text of 38 characters or less whole', () => {
    expect(pruneText('Short text')).toBe('Short text');
    expect(pruneText('x'.repeat(38))).toBe('x'.repeat(38));
    expect(pruneText('')).toBe('');
  });

  it('cuts a longer text at 38 characters, at a word where it can, and marks the cut', () => {
    const long = 'Your appointment with Dr. Bright is confirmed for Monday at 9am';
    const cut = pruneText(long);
    expect(cut).toBe('Your appointment with Dr. Bright is…');
    expect(cut.length).toBeLessThanOrEqual(39);
    expect(pruneText('x'.repeat(60))).toBe(`${'x'.repeat(38)}…`);
    expect(pruneText('one two three', 7)).toBe('one two…');
  });
});
