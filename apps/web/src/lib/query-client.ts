import {
  type InvalidateOptions,
  type InvalidateQueryFilters,
  type Query,
  QueryClient,
} from '@tanstack/react-query';

/**
 * A change invalidates what it touched; a fetch already in flight may have been answered before the
 * change. TanStack restarts such a fetch only when its query already has data: the first fetch of a query
 * (a list searched, paged or filtered a moment before the change) would be kept, and the screen would show
 * the rows from before the change until something else refetched it (an archived business still in the
 * active list, ADR 101). Here such a first fetch is let finish (restarting it at every invalidation could
 * starve a screen that a stream of changes keeps invalidating) and then invalidated once more, which
 * refetches it where a screen shows it.
 */
export class FreshQueryClient extends QueryClient {
  readonly #following = new WeakSet<Query>();

  override invalidateQueries(filters?: InvalidateQueryFilters, options?: InvalidateOptions): Promise<void> {
    for (const query of this.getQueryCache().findAll({ ...filters, fetchStatus: 'fetching' })) {
      if (query.state.data !== undefined || this.#following.has(query)) continue;
      this.#following.add(query);
      // The fetch in flight (fetch() hands back its promise, it starts nothing), then the invalidation it
      // missed: TanStack's own, so that a failing fetch is not followed again and again.
      void query
        .fetch()
        .catch(() => undefined)
        .finally(() => {
          this.#following.delete(query);
          void super.invalidateQueries({ queryKey: query.queryKey, exact: true }, options);
        });
    }
    return super.invalidateQueries(filters, options);
  }
}

export const queryClient = new FreshQueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
