import type { TListQuery } from '@stn/contracts/http';

/** limit/offset for a list query, and the envelope of spec 000 §3 (data, meta.total). */
export function pageOf(q: TListQuery) {
  return { limit: q.perPage, offset: (q.page - 1) * q.perPage };
}

export function listEnvelope<T>(data: T[], total: number, q: TListQuery) {
  return { data, meta: { total, page: q.page, perPage: q.perPage } };
}

/** An ILIKE pattern that finds the keyword anywhere, its own % and _ taken literally. */
export const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
