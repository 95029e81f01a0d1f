import type { ComponentType, LazyExoticComponent } from 'react';

/** Screens of the agency area by route name (route-table.ts); each is its own lazy chunk. */
export const agencyScreens: Record<string, LazyExoticComponent<ComponentType>> = {};
