import type {
  TAgencyUser,
  TCreateAgencyUserRequest,
  TUpdateAgencyUserRequest,
} from '@stn/contracts/businesses';
import { userCalls } from './user-calls.ts';

// The agency's own users (spec 001 §7 "Agency users"), AgencyAdmin only.

export const AGENCY_USERS_PATH = '/v1/agency/users';

const users = userCalls<TAgencyUser, TCreateAgencyUserRequest, TUpdateAgencyUserRequest>(
  'agency',
  AGENCY_USERS_PATH,
  'onSuccess',
);

export const agencyUserQuery = users.oneQuery;
export const useAgencyUser = users.useOne;
export const useCreateAgencyUser = users.useCreate;
export const useUpdateAgencyUser = users.useUpdate;
export const useDeleteAgencyUser = users.useDelete;
export const useChangeAgencyUserPassword = users.useChangePassword;
export const useResetAgencyUserPassword = users.useResetPassword;
