import { type InvalidateOptions, type InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';

/**
 * A change invalidates what it touched; a fetch already in flight may have been answered before the
 * change. TanStack restarts such a fetch only when its query already has data: the first fetch of a query
 * (a list searched, paged or filtered a moment before the change) would be kept, and the screen would show
 * the rows from before the change until something else refetched it (an archived business still in the
 * active list). Here every fetch in flight that the invalidation reaches starts again, as TanStack does
 * for the others, and whoever awaits it gets the new answer.
 */
export class FreshQueryClient extends QueryClient {
  override invalidateQueries(filters?: InvalidateQueryFilters, options?: InvalidateOptions): Promise<void> {
    for (const query of this.getQueryCache().findAll({ ...filters, fetchStatus: 'fetching' })) {
      if (query.state.data !== undefined) continue;
      void query.cancel({ silent: true });
      query.fetch().catch(() => undefined);
    }
    return super.invalidateQueries(filters, options);
  }
}

export const queryClient = new FreshQueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
