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
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import {
  allBusinessUsers,
  businessAgents,
  changeBusinessUserPassword,
  createBusinessUser,
  deleteBusinessUser,
  getBusinessUser,
  listBusinessUsers,
  resetBusinessUserPassword,
  updateBusinessUser,
} from './business-users-service.ts';

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
    async (request) => listBusinessUsers(deps, actorOf(request), request.query),
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
    async (request) => ({ success: true as const, data: await allBusinessUsers(deps, actorOf(request)) }),
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
      data: await businessAgents(deps, actorOf(request), request.query),
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
      data: await getBusinessUser(deps, actorOf(request), request.params.id),
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
      data: await createBusinessUser(deps, actorOf(request), request.body),
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
      data: await updateBusinessUser(deps, actorOf(request), request.params.id, request.body),
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
      await deleteBusinessUser(deps, actorOf(request), request.params.id, clientOf(request));
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
      await changeBusinessUserPassword(
        deps,
        actorOf(request),
        request.params.id,
        request.body,
        clientOf(request),
      );
      return { success: true as const, message: translate('users.password_changed', request.lang) };
    },
  );

  app.post(
    '/v1/businesses/users/:id/reset-password',
    {
      config: { capability: 'businessUsers.manage' },
      schema: {
        tags,
        summary: 'E-mail the user a password reset link',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      const { email } = await resetBusinessUserPassword(
        deps,
        actorOf(request),
        request.params.id,
        clientOf(request),
      );
      return { success: true as const, message: translate('users.reset_link_sent', request.lang, { email }) };
    },
  );
};
