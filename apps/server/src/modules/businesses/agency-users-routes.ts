import {
  ZAgencyUserAllResponse,
  ZAgencyUserList,
  ZAgencyUserListQuery,
  ZAgencyUserResponse,
  ZChangePasswordRequest,
  ZCreateAgencyUserRequest,
  ZUpdateAgencyUserRequest,
} from '@stn/contracts/businesses';
import { ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { clientOf as client } from '../../platform/http/client.ts';
import { listEnvelope } from '../../platform/http/pagination.ts';
import { errorResponses as errors, okMessage } from '../../platform/http/replies.ts';
import {
  allAgencyUsers,
  changeAgencyUserPassword,
  createAgencyUser,
  deleteAgencyUser,
  getAgencyUser,
  listAgencyUsers,
  resetAgencyUserPassword,
  updateAgencyUser,
} from './agency-users.ts';

const ok = (request: FastifyRequest, key: string, params: Record<string, string | number> = {}) =>
  okMessage(request, `businesses.${key}`, params);

// Agency users (docs/decisions/008-agency-users-paths.md): the AgencyAdmin only.
const tags = ['agency users'];
const config = { capability: 'agencyUsers.manage' as const };

export const agencyUsersRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/agency/users',
    {
      config,
      schema: {
        tags,
        summary: "The agency's users (keyword; user_type 1, 2 or 3)",
        querystring: ZAgencyUserListQuery,
        response: { 200: ZAgencyUserList, ...errors },
      },
    },
    async (request) => {
      const r = await listAgencyUsers(deps, actorOf(request), request.query);
      return listEnvelope(r.data, r.total, request.query);
    },
  );

  app.get(
    '/v1/agency/users/all',
    {
      config,
      schema: {
        tags,
        summary: "All the agency's active users, unpaged",
        response: { 200: ZAgencyUserAllResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await allAgencyUsers(deps, actorOf(request)) }),
  );

  app.get(
    '/v1/agency/users/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One agency user',
        params: ZIdParams,
        response: { 200: ZAgencyUserResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getAgencyUser(deps, actorOf(request), request.params.id),
    }),
  );

  app.post(
    '/v1/agency/users',
    {
      config,
      schema: {
        tags,
        summary: 'Add an agency user (AccountManager 1, FinanaceManager 2, MarketingManager 3)',
        body: ZCreateAgencyUserRequest,
        response: { 200: ZAgencyUserResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'agency_users.created'),
      data: await createAgencyUser(deps, actorOf(request), request.body),
    }),
  );

  app.put(
    '/v1/agency/users/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit an agency user (active false ends their sessions)',
        params: ZIdParams,
        body: ZUpdateAgencyUserRequest,
        response: { 200: ZAgencyUserResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'agency_users.updated'),
      data: await updateAgencyUser(deps, actorOf(request), request.params.id, request.body, client(request)),
    }),
  );

  app.delete(
    '/v1/agency/users/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Remove an agency user',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteAgencyUser(deps, actorOf(request), request.params.id, client(request));
      return ok(request, 'agency_users.deleted');
    },
  );

  app.put(
    '/v1/agency/users/:id/change-password',
    {
      config,
      schema: {
        tags,
        summary: "Set an agency user's password (ends their sessions)",
        params: ZIdParams,
        body: ZChangePasswordRequest,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await changeAgencyUserPassword(
        deps,
        actorOf(request),
        request.params.id,
        request.body.password,
        client(request),
      );
      return ok(request, 'agency_users.password_changed');
    },
  );

  app.post(
    '/v1/agency/users/:id/reset-password',
    {
      config,
      schema: {
        tags,
        summary: 'E-mail an agency user a password reset link',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await resetAgencyUserPassword(deps, actorOf(request), request.params.id, client(request));
      return ok(request, 'agency_users.reset_link_sent');
    },
  );
};
