import {
  ZActiveRequest,
  ZPackageAllResponse,
  ZPackageList,
  ZPackageListQuery,
  ZPackageRequest,
  ZPackageResponse,
} from '@stn/contracts/businesses';
import { ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { listEnvelope } from '../../platform/http/pagination.ts';
import { errors, ok } from './http.ts';
import {
  allPackages,
  createPackage,
  deletePackage,
  getPackage,
  listPackages,
  updatePackage,
} from './packages.ts';

// Packages of spec 001 §7 (extra messages or calls): the AgencyAdmin.
const tags = ['packages'];
const config = { capability: 'packages.manage' as const };

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
      const r = await listPackages(deps, actorOf(request), request.query);
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
    async (request) => ({ success: true as const, data: await allPackages(deps, actorOf(request)) }),
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
      data: await getPackage(deps, actorOf(request), request.params.id),
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
      data: await createPackage(deps, actorOf(request), request.body),
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
      data: await updatePackage(deps, actorOf(request), request.params.id, request.body),
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
      await deletePackage(deps, actorOf(request), request.params.id);
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
      const data = await updatePackage(deps, actorOf(request), request.params.id, {
        active: request.body.active,
      });
      return { ...ok(request, data.active ? 'packages.activated' : 'packages.deactivated'), data };
    },
  );
};
