// Where the app's landing route sends a visitor of a site with a landing page (ADR 080).

/**
 * Where the light landing page is loaded from: '/', which the server answers with it. When this very
 * document was loaded at '/', the server did not (the development server, which knows no site): its file,
 * so that this never loads '/' again and again.
 */
export function lightLandingAddress(documentUrl: string | undefined): string {
  const path = documentUrl ? new URL(documentUrl, 'http://x').pathname : '';
  return path === '/' ? '/landing.html' : '/';
}
