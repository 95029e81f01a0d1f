import type { ComponentType, LazyExoticComponent } from 'react';

/** Screens of the admin area by route name (route-table.ts); each is its own lazy chunk. */
export const adminScreens: Record<string, LazyExoticComponent<ComponentType>> = {};
