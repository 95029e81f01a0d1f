import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZAgentsQuery,
  ZBusinessUserList,
  ZBusinessUserListQuery,
  ZBusinessUserResponse,
  ZChangePasswordRequest,
  ZCreateBusinessUserRequest,
  ZUpdateBusinessUserRequest,
  ZUserSummaryList,
} from '@stn/contracts/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import {
  allBusinessUsers,
  businessAgents,
  changeBusinessUserPassword,
  createBusinessUser,
  deleteBusinessUser,
  getBusinessUser,
  listBusinessUsers,
  updateBusinessUser,
} from '../business-users.ts';

const tags = ['business users'];
const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };

export const businessUsersRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/businesses/users',
    {
      config: { capability: 'businessUsers.manage' },
      schema: {
        tags,
        summary: "The business's users (keyword, status, role), 10 per page",
        querystring: ZBusinessUserListQuery,
        response: { 200: ZBusinessUserList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listBusinessUsers(ctxOf(deps, request), request.query),
  );

  app.get(
    '/v1/businesses/users/all',
    {
      config: { capability: 'team.view' },
      schema: {
        tags,
        summary: 'Every active user of the business, for pickers',
        response: { 200: ZUserSummaryList, ...denied },
      },
    },
    async (request) => ({ success: true as const, data: await allBusinessUsers(ctxOf(deps, request)) }),
  );

  app.get(
    '/v1/businesses/users/agents',
    {
      config: { capability: 'team.view' },
      schema: {
        tags,
        summary: 'Active users with an agent type (channel sms or voice narrows it), for assignment',
        querystring: ZAgentsQuery,
        response: { 200: ZUserSummaryList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await businessAgents(ctxOf(deps, request), request.query),
    }),
  );

  app.get(
    '/v1/businesses/users/:id',
    {
      config: { capability: 'businessUsers.manage' },
      schema: {
        tags,
        summary: 'One user of the business',
        params: ZIdParams,
        response: { 200: ZBusinessUserResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getBusinessUser(ctxOf(deps, request), request.params),
    }),
  );

  app.post(
    '/v1/businesses/users',
    {
      config: { capability: 'businessUsers.manage' },
      schema: {
        tags,
        summary:
          "Add a user (BusinessAdmin, or BusinessUser of a user type), within the business's user limit",
        body: ZCreateBusinessUserRequest,
        response: { 200: ZBusinessUserResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('users.created', request.lang),
      data: await createBusinessUser(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/businesses/users/:id',
    {
      config: { capability: 'businessUsers.manage' },
      schema: {
        tags,
        summary: 'Edit a user of the business',
        params: ZIdParams,
        body: ZUpdateBusinessUserRequest,
        response: { 200: ZBusinessUserResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('users.updated', request.lang),
      data: await updateBusinessUser(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.delete(
    '/v1/businesses/users/:id',
    {
      config: { capability: 'businessUsers.manage' },
      schema: {
        tags,
        summary: 'Delete a user (not yourself, not the business owner)',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteBusinessUser(ctxOf(deps, request), request.params);
      return { success: true as const, message: translate('users.deleted', request.lang) };
    },
  );

  app.put(
    '/v1/businesses/users/:id/change-password',
    {
      config: { capability: 'businessUsers.manage' },
      schema: {
        tags,
        summary: "Set another user's password; their sessions end",
        params: ZIdParams,
        body: ZChangePasswordRequest,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await changeBusinessUserPassword(ctxOf(deps, request), { ...request.body, id: request.params.id });
      return { success: true as const, message: translate('users.password_changed', request.lang) };
    },
  );
};
