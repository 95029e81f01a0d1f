import { describe, expect, it } from 'vitest';
import { lightLandingAddress } from './address.ts';

describe('lightLandingAddress (ADR 080)', () => {
  it("loads '/' after a client-side navigation, the page's file when this document is '/' itself", () => {
    expect(lightLandingAddress('http://acme.localhost:3000/agency/contacts')).toBe('/');
    expect(lightLandingAddress(undefined)).toBe('/');
    expect(lightLandingAddress('http://acme.localhost:5173/')).toBe('/landing.html');
    expect(lightLandingAddress('http://acme.localhost:5173/?utm=x')).toBe('/landing.html');
  });
});
