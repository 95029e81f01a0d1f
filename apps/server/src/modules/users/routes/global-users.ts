import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZChangePasswordRequest,
  ZCreateGlobalUserRequest,
  ZGlobalUserList,
  ZGlobalUserListQuery,
  ZGlobalUserResponse,
  ZUpdateGlobalUserRequest,
} from '@stn/contracts/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import {
  changeGlobalUserPassword,
  createGlobalUser,
  deleteGlobalUser,
  getGlobalUser,
  listGlobalUsers,
  updateGlobalUser,
} from '../global-users.ts';

const tags = ['global users'];
// Spec 000 §6: only a SuperAdmin sees global users; a plain Admin gets 403.
const config = { capability: 'globalUsers.manage' as const };
const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };

export const globalUsersRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/users',
    {
      config,
      schema: {
        tags,
        summary: 'Platform users (SuperAdmin and Admin), keyword and role, 10 per page',
        querystring: ZGlobalUserListQuery,
        response: { 200: ZGlobalUserList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listGlobalUsers(ctxOf(deps, request), request.query),
  );

  app.get(
    '/v1/users/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One platform user',
        params: ZIdParams,
        response: { 200: ZGlobalUserResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getGlobalUser(ctxOf(deps, request), request.params),
    }),
  );

  app.post(
    '/v1/users',
    {
      config,
      schema: {
        tags,
        summary: 'Add a platform user (role SuperAdmin or Admin)',
        body: ZCreateGlobalUserRequest,
        response: { 200: ZGlobalUserResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('users.created', request.lang),
      data: await createGlobalUser(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/users/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a platform user',
        params: ZIdParams,
        body: ZUpdateGlobalUserRequest,
        response: { 200: ZGlobalUserResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('users.updated', request.lang),
      data: await updateGlobalUser(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.delete(
    '/v1/users/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a platform user (not yourself)',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteGlobalUser(ctxOf(deps, request), request.params);
      return { success: true as const, message: translate('users.deleted', request.lang) };
    },
  );

  app.put(
    '/v1/users/:id/change-password',
    {
      config,
      schema: {
        tags,
        summary: "Set another platform user's password; their sessions end",
        params: ZIdParams,
        body: ZChangePasswordRequest,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await changeGlobalUserPassword(ctxOf(deps, request), { ...request.body, id: request.params.id });
      return { success: true as const, message: translate('users.password_changed', request.lang) };
    },
  );
};
