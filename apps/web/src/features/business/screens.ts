import type { ComponentType, LazyExoticComponent } from 'react';

/** Screens of the business area by route name (route-table.ts); each is its own lazy chunk. */
export const businessScreens: Record<string, LazyExoticComponent<ComponentType>> = {};
