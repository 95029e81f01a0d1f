/** Whether an answer's `user` is the signed-in user (the same id): only then may it replace the stored one. */
export function sameUser(stored: { id: number } | null, returned: unknown): boolean {
  if (!stored || !returned || typeof returned !== 'object') return false;
  const r = returned as { id?: unknown; role_group?: unknown };
  return r.id === stored.id && typeof r.role_group === 'string';
}
