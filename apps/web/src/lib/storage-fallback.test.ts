import { describe, expect, it } from 'vitest';
import { memoryStorage, usableStorage } from './storage-fallback.ts';

describe('usableStorage', () => {
  it('falls back to memory when the browser refuses its storage, and keeps one that works', () => {
    const memory = memoryStorage();
    const refused = usableStorage(() => {
      throw new DOMException('Access is denied for this document.', 'SecurityError');
    }, memory);
    expect(refused).toBe(memory);
    refused.setItem('lang', 'es');
    expect(refused.getItem('lang')).toBe('es');
    expect(refused.length).toBe(1);
    refused.removeItem('lang');
    expect(refused.getItem('lang')).toBeNull();
    const working = { length: 0 } as Storage;
    expect(usableStorage(() => working, memory)).toBe(working);
  });
});
