import {
  ZAgencyParams,
  ZHasDefaultPlanResponse,
  ZPlanAllResponse,
  ZPlanList,
  ZPlanParams,
  ZPlanRequest,
  ZPlanResponse,
} from '@stn/contracts/businesses';
import { ZErrorResponse, ZListQuery, ZSuccessMessage } from '@stn/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { listEnvelope } from '../../platform/http/pagination.ts';
import { errors, ok } from './http.ts';
import { allPlans, deletePlan, getPlan, hasDefaultPlan, listPlans, savePlan } from './plans.ts';

// Subscription plans of spec 001 §7: AgencyAdmin, AccountManager, FinanaceManager; platform admins.
const tags = ['plans'];
const config = { capability: 'plans.manage' as const };
const base = '/v1/agencies/:agency_id/subscription/plans';

export const plansRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    base,
    {
      config,
      schema: {
        tags,
        summary: "The agency's plans (keyword)",
        params: ZAgencyParams,
        querystring: ZListQuery,
        response: { 200: ZPlanList, ...errors },
      },
    },
    async (request) => {
      const r = await listPlans(deps, actorOf(request), request.params.agency_id, request.query);
      return listEnvelope(r.data, r.total, request.query);
    },
  );

  app.get(
    `${base}/all`,
    {
      config,
      schema: {
        tags,
        summary: "All the agency's plans, unpaged",
        params: ZAgencyParams,
        response: { 200: ZPlanAllResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await allPlans(deps, actorOf(request), request.params.agency_id),
    }),
  );

  app.get(
    `${base}/has-default`,
    {
      config,
      schema: {
        tags,
        summary: 'Whether the agency has a Default plan, and which',
        params: ZAgencyParams,
        response: { 200: ZHasDefaultPlanResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await hasDefaultPlan(deps, actorOf(request), request.params.agency_id),
    }),
  );

  app.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'Add a plan (price in integer cents; one Default plan per agency)',
        params: ZAgencyParams,
        body: ZPlanRequest,
        response: { 200: ZPlanResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'plans.created'),
      data: await savePlan(deps, actorOf(request), request.params.agency_id, request.body),
    }),
  );

  app.get(
    `${base}/:plan_id`,
    {
      config,
      schema: { tags, summary: 'One plan', params: ZPlanParams, response: { 200: ZPlanResponse, ...errors } },
    },
    async (request) => ({
      success: true as const,
      data: await getPlan(deps, actorOf(request), request.params.agency_id, request.params.plan_id),
    }),
  );

  app.put(
    `${base}/:plan_id`,
    {
      config,
      schema: {
        tags,
        summary: 'Edit a plan',
        params: ZPlanParams,
        body: ZPlanRequest,
        response: { 200: ZPlanResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'plans.updated'),
      data: await savePlan(
        deps,
        actorOf(request),
        request.params.agency_id,
        request.body,
        request.params.plan_id,
      ),
    }),
  );

  app.delete(
    `${base}/:plan_id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a plan no live business is on (else 409)',
        params: ZPlanParams,
        response: { 200: ZSuccessMessage, 409: ZErrorResponse, ...errors },
      },
    },
    async (request) => {
      await deletePlan(deps, actorOf(request), request.params.agency_id, request.params.plan_id);
      return ok(request, 'plans.deleted');
    },
  );
};
