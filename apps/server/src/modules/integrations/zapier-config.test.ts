// Zapier's settings (ADR 089): validated at start, with laptop defaults.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.ts';

describe('Zapier settings', () => {
  it('default to the client id "zapier", no secret (derived at use), Zapier-style redirect', () => {
    const z = loadConfig({}).zapier;
    expect(z.clientId).toBe('zapier');
    expect(z.clientSecret).toBeUndefined();
    expect(z.redirectUris).toHaveLength(1);
    expect(z.redirectUris[0]).toMatch(/^https:\/\/zapier\.com\//);
    expect(z.inviteUrl).toBeUndefined();
    expect(z.hookAllowOrigins).toEqual([]);
  });
  it('take a list of redirect addresses, a secret, an invite link and hook origins', () => {
    const z = loadConfig({
      ZAPIER_CLIENT_ID: 'stn-app',
      ZAPIER_CLIENT_SECRET: 'a-long-enough-secret',
      ZAPIER_REDIRECT_URIS: 'https://zapier.com/a/, https://zapier.com/b/',
      ZAPIER_INVITE_URL: 'https://zapier.com/developer/public-invite/1/abc/',
      ZAPIER_HOOK_ALLOW_ORIGINS: 'http://127.0.0.1:4567',
    }).zapier;
    expect(z).toEqual({
      clientId: 'stn-app',
      clientSecret: 'a-long-enough-secret',
      redirectUris: ['https://zapier.com/a/', 'https://zapier.com/b/'],
      inviteUrl: 'https://zapier.com/developer/public-invite/1/abc/',
      hookAllowOrigins: ['http://127.0.0.1:4567'],
    });
  });
  it('refuse a short secret, a bad redirect address, a bad client id and a non-https invite', () => {
    expect(() => loadConfig({ ZAPIER_CLIENT_SECRET: 'short' })).toThrow(
      /ZAPIER_CLIENT_SECRET must be at least 16/,
    );
    expect(() => loadConfig({ ZAPIER_REDIRECT_URIS: 'not a url' })).toThrow(/ZAPIER_REDIRECT_URIS/);
    expect(() => loadConfig({ ZAPIER_REDIRECT_URIS: 'ftp://zapier.com/x' })).toThrow(/ZAPIER_REDIRECT_URIS/);
    expect(() => loadConfig({ ZAPIER_CLIENT_ID: 'a b' })).toThrow(/ZAPIER_CLIENT_ID/);
    expect(() => loadConfig({ ZAPIER_INVITE_URL: 'http://zapier.com/x' })).toThrow(/ZAPIER_INVITE_URL/);
  });
});
