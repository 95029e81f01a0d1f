import type { TCapability } from '@stn/contracts/capabilities';
import type { FastifyInstance } from 'fastify';

/** One route as registered: what the capability walk and the docs tests read. */
export type RouteInfo = {
  method: string;
  url: string;
  public: boolean;
  capability: TCapability | undefined;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app with the access it declares, filled as routes register. */
    routeCatalogue: RouteInfo[];
  }
}

/** Records every route registered after this call (HEAD twins of GET routes left out). */
export function recordRoutes(app: FastifyInstance): void {
  const list: RouteInfo[] = [];
  app.decorate('routeCatalogue', list);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      list.push({
        method,
        url: route.url,
        public: route.config?.access === 'public',
        capability: route.config?.capability,
      });
    }
  });
}
