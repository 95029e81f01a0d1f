// A statement that must undo its own writes when a condition it computes fails (a call over the month's
// limit, a batch of texts another batch raced) calls `stn_refuse(reason)` (migration 0037), which raises:
// the statement aborts and, being its own transaction, leaves nothing behind. The caller reads the reason.

/** Why a statement refused (`stn_refuse`): its reason, or undefined for any other error. */
export const refusalOf = (err: unknown): string | undefined => {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const pg = e.code === 'P0001' ? e : e.cause?.code === 'P0001' ? e.cause : undefined;
  return pg?.message;
};
