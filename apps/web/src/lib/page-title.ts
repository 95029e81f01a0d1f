/** The product's own name: the spec's title suffix (spec 000 §1). */
export const PLATFORM_NAME = 'Start Texting Now';

/**
 * The tab title: '<Screen> - <Site title> - Start Texting Now', each name once (the main site's title is
 * the platform's own name, so it reads '<Screen> - Start Texting Now'). The product-order pages show the
 * site title alone (spec 000 §1).
 */
export function pageTitle(screen: string, siteTitle: string | undefined, alone = false): string {
  const site = siteTitle?.trim() || PLATFORM_NAME;
  if (alone) return site;
  const parts = [screen.trim(), site, PLATFORM_NAME].filter(Boolean);
  return parts.filter((p, i) => parts.indexOf(p) === i).join(' - ');
}
