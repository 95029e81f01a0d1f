import { describe, expect, it } from 'vitest';
import { pageTitle } from './page-title.ts';

describe('pageTitle', () => {
  it('names the screen, then the site, and the platform once', () => {
    expect(pageTitle('Profile', 'Start Texting Now')).toBe('Profile - Start Texting Now');
    expect(pageTitle('Profile', 'Acme Texting')).toBe('Profile - Acme Texting - Start Texting Now');
    expect(pageTitle('Iniciar sesión', undefined)).toBe('Iniciar sesión - Start Texting Now');
  });

  it('never repeats the site title (the main site is the platform)', () => {
    expect(pageTitle('', 'Start Texting Now')).toBe('Start Texting Now');
    expect(pageTitle('', 'Acme')).toBe('Acme - Start Texting Now');
  });

  it('shows the site title alone on the product-order pages', () => {
    expect(pageTitle('Order', 'Acme', true)).toBe('Acme');
  });
});
