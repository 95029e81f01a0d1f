// The AI settings (ADR 086): validated at start, with the in-process stand-in as the default.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';

describe('AI settings', () => {
  it('default to the stand-in (no base address, no key)', () => {
    expect(loadConfig({}).ai).toEqual({ baseUrl: undefined, apiKey: undefined, model: 'gpt-4o-mini' });
  });
  it('take a base address without its trailing slash, a key and a model', () => {
    const c = loadConfig({ AI_BASE_URL: 'https://api.example.com/v1/', AI_API_KEY: 'sk-1', AI_MODEL: 'm' });
    expect(c.ai).toEqual({ baseUrl: 'https://api.example.com/v1', apiKey: 'sk-1', model: 'm' });
  });
  it('refuse a base that is not http(s), and a key without a base', () => {
    expect(() => loadConfig({ AI_BASE_URL: 'ftp://x.example.com' })).toThrow(
      /AI_BASE_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ AI_API_KEY: 'sk-1' })).toThrow(ConfigError);
  });
});
