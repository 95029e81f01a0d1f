import type { TSiteData } from '@stn/contracts/site';
import { describe, expect, it } from 'vitest';
import { landingDocument } from './app.ts';

// The light landing page's document (ADR 080): the site's data embedded, nothing in it able to end its
// element, the title and favicon in the HTML, the nonce only when given.

const HTML =
  '<!doctype html><html lang="en"><head><link rel="icon" id="favicon" href="data:," /><title>Home - Start Texting Now</title></head>' +
  '<body><a class="logo" href="/" id="landing-logo">Start Texting Now</a><span id="landing-year">2026</span> <span id="landing-site-title">Start Texting Now</span></body></html>';
const SITE = {
  title: 'Acme <Calls> & Co',
  favicon: 'https://cdn.example/f.png?a=1&b="2"',
  custom_script: '</script><script>alert(1)</script>',
  landingTexts: {},
} as unknown as TSiteData;

describe('landingDocument', () => {
  it('embeds the site data as JSON that no markup in it can close', () => {
    const out = landingDocument(HTML, SITE, null);
    const json = /<script type="application\/json" id="site-data">(.*?)<\/script>/.exec(out)?.[1] ?? '';
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual(SITE);
    expect(out).not.toContain('custom-script-nonce');
  });

  it("puts the site's title (escaped) in the tab, the logo and the footer, and its favicon", () => {
    const out = landingDocument(HTML, SITE, 'abc123==');
    expect(out).toContain('<title>Home - Acme &lt;Calls&gt; &amp; Co - Start Texting Now</title>');
    expect(out).toContain('id="landing-logo">Acme &lt;Calls&gt; &amp; Co</a>');
    expect(out).toContain('id="landing-site-title">Acme &lt;Calls&gt; &amp; Co</span>');
    expect(out).toContain(`id="landing-year">${new Date().getFullYear()}<`);
    expect(out).toContain('href="https://cdn.example/f.png?a=1&amp;b=&quot;2&quot;"');
    expect(out).toContain('<head><meta name="custom-script-nonce" content="abc123==">');
    const withLogo = landingDocument(HTML, { ...SITE, headerLogo: '/files/logo.png' }, null);
    expect(withLogo).toContain(
      'id="landing-logo"><img src="/files/logo.png" alt="Acme &lt;Calls&gt; &amp; Co" height="36"></a>',
    );
  });
});
