import type {
  TBusinessUser,
  TCreateBusinessUserRequest,
  TUpdateBusinessUserRequest,
} from '@stn/contracts/users';
import { userCalls } from './user-calls.ts';

export { type AgentChannel, agentsQuery, useAgents } from '../../../lib/pickers.ts';

// The business users calls (spec 001 §7 "Business users"): list, one, add, edit, delete, passwords, agents.

export const BUSINESS_USERS_PATH = '/v1/businesses/users';

const users = userCalls<TBusinessUser, TCreateBusinessUserRequest, TUpdateBusinessUserRequest>(
  'business',
  BUSINESS_USERS_PATH,
  'onSettled',
);

export const businessUserQuery = users.oneQuery;
export const useBusinessUser = users.useOne;
export const useCreateBusinessUser = users.useCreate;
export const useUpdateBusinessUser = users.useUpdate;
export const useDeleteBusinessUser = users.useDelete;
export const useChangeUserPassword = users.useChangePassword;
export const useSendResetLink = users.useResetPassword;
