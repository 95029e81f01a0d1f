// The Google settings (ADR 091): validated at start, with the in-process stand-in as the default.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';

describe('Google settings', () => {
  it('default to the stand-in: no base address, its own client id, no secret', () => {
    expect(loadConfig({}).google).toEqual({
      baseUrl: undefined,
      clientId: 'local-stand-in',
      clientSecret: undefined,
    });
  });
  it('take a base without its trailing slash with the client id and secret', () => {
    const c = loadConfig({
      GOOGLE_BASE_URL: 'https://google.example.com/',
      GOOGLE_CLIENT_ID: 'id-1.apps.example',
      GOOGLE_CLIENT_SECRET: 'shh',
    });
    expect(c.google).toEqual({
      baseUrl: 'https://google.example.com',
      clientId: 'id-1.apps.example',
      clientSecret: 'shh',
    });
  });
  it('refuse a base that is not http(s), a base without the client, and a client without a base', () => {
    expect(() => loadConfig({ GOOGLE_BASE_URL: 'ftp://x.example.com' })).toThrow(
      /GOOGLE_BASE_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ GOOGLE_BASE_URL: 'https://g.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'x', GOOGLE_CLIENT_SECRET: 'y' })).toThrow(ConfigError);
  });
});
