/** Avatar initials (spec 000 §3): first letters of first and last name, else '?'. */
export function avatarInitials(firstName?: string | null, lastName?: string | null): string {
  const first = (name?: string | null) => Array.from(name?.trim() ?? '')[0] ?? '';
  return (first(firstName) + first(lastName)).toUpperCase() || '?';
}
