import type { TPackage, TPackageRequest } from '@stn/contracts/businesses';
import { keys } from '../../../lib/query-keys.ts';
import { resourceCalls } from '../../../lib/resource-api.ts';

// The agency's packages of extra messages or calls (spec 001 §7 "packages": CRUD and toggleActive).

export const PACKAGES_PATH = '/v1/packages';

const packages = resourceCalls<TPackage, TPackageRequest>({
  path: PACKAGES_PATH,
  keys: keys.packages,
  toggle: 'toggleActive',
  deleteRefresh: 'onSuccess',
});

export const packageQuery = packages.oneQuery;
export const usePackage = packages.useOne;
export const useSavePackage = packages.useSave;
export const useTogglePackage = packages.useToggle;
export const useDeletePackage = packages.useDelete;
