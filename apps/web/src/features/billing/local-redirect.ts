/** A path of this app to go back to: '/…' only (never '//host' or a full URL). */
export function localRedirect(value: string | null): string | null {
  return value?.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : null;
}
