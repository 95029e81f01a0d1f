import {
  ZAgencyUserAllResponse,
  ZAgencyUserList,
  ZAgencyUserListQuery,
  ZAgencyUserResponse,
  ZChangePasswordRequest,
  ZCreateAgencyUserRequest,
  ZUpdateAgencyUserRequest,
} from '@stn/contracts/businesses';
import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../platform/deps.ts';
import { listEnvelope } from '../../../platform/http/pagination.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import {
  allAgencyUsers,
  changeAgencyUserPassword,
  createAgencyUser,
  deleteAgencyUser,
  getAgencyUser,
  listAgencyUsers,
  updateAgencyUser,
} from '../agency-users.ts';

// Agency users (docs/decisions/008-agency-users-paths.md): the AgencyAdmin only.
const tags = ['agency users'];
const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
// The messages of these routes kept their keys under 'businesses.' when the routes moved here.
const ok = (request: FastifyRequest, key: string) => ({
  success: true as const,
  message: translate(`businesses.${key}`, request.lang),
});
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
      const r = await listAgencyUsers(ctxOf(deps, request), request.query);
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
    async (request) => ({ success: true as const, data: await allAgencyUsers(ctxOf(deps, request)) }),
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
      data: await getAgencyUser(ctxOf(deps, request), request.params),
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
      data: await createAgencyUser(ctxOf(deps, request), request.body),
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
      data: await updateAgencyUser(ctxOf(deps, request), { ...request.body, id: request.params.id }),
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
      await deleteAgencyUser(ctxOf(deps, request), request.params);
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
      await changeAgencyUserPassword(ctxOf(deps, request), {
        id: request.params.id,
        password: request.body.password,
      });
      return ok(request, 'agency_users.password_changed');
    },
  );
};
