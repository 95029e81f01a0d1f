import {
  ZActiveRequest,
  ZPackageAllResponse,
  ZPackageList,
  ZPackageListQuery,
  ZPackageRequest,
  ZPackageResponse,
} from '@stn/contracts/businesses';
import { ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../../platform/auth/plugin.ts';
import type { Deps } from '../../../platform/deps.ts';
import { listEnvelope } from '../../../platform/http/pagination.ts';
import { errorResponses as errors, okMessage } from '../../../platform/http/replies.ts';
import { userContext } from '../../../platform/tenancy/context.ts';
import {
  allPackages,
  createPackage,
  deletePackage,
  getPackage,
  listPackages,
  updatePackage,
} from '../service.ts';

// Packages of spec 001 §7 (extra messages or calls): the AgencyAdmin.
const tags = ['packages'];
const config = { capability: 'packages.manage' as const };
const ok = (request: FastifyRequest, key: string) => okMessage(request, `businesses.${key}`);
const ctxOf = (deps: Deps, request: FastifyRequest) => userContext(deps, actorOf(request));

export const packagesRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/packages',
    {
      config,
      schema: {
        tags,
        summary: "The agency's packages (keyword, active, kind)",
        querystring: ZPackageListQuery,
        response: { 200: ZPackageList, ...errors },
      },
    },
    async (request) => {
      const r = await listPackages(ctxOf(deps, request), request.query);
      return listEnvelope(r.data, r.total, request.query);
    },
  );

  app.get(
    '/v1/packages/all',
    {
      config,
      schema: {
        tags,
        summary: "All the agency's packages, unpaged",
        response: { 200: ZPackageAllResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await allPackages(ctxOf(deps, request)) }),
  );

  app.get(
    '/v1/packages/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One package',
        params: ZIdParams,
        response: { 200: ZPackageResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getPackage(ctxOf(deps, request), { id: request.params.id }),
    }),
  );

  app.post(
    '/v1/packages',
    {
      config,
      schema: {
        tags,
        summary: 'Add a package (kind messages or calls, quantity, price in integer cents)',
        body: ZPackageRequest,
        response: { 200: ZPackageResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'packages.created'),
      data: await createPackage(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/packages/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a package',
        params: ZIdParams,
        body: ZPackageRequest,
        response: { 200: ZPackageResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'packages.updated'),
      data: await updatePackage(ctxOf(deps, request), { id: request.params.id, changes: request.body }),
    }),
  );

  app.delete(
    '/v1/packages/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a package',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deletePackage(ctxOf(deps, request), { id: request.params.id });
      return ok(request, 'packages.deleted');
    },
  );

  app.put(
    '/v1/packages/:id/toggleActive',
    {
      config,
      schema: {
        tags,
        summary: 'Put a package on or off sale',
        params: ZIdParams,
        body: ZActiveRequest,
        response: { 200: ZPackageResponse, ...errors },
      },
    },
    async (request) => {
      const data = await updatePackage(ctxOf(deps, request), {
        id: request.params.id,
        changes: { active: request.body.active },
      });
      return { ...ok(request, data.active ? 'packages.activated' : 'packages.deactivated'), data };
    },
  );
};
