import {
  ZAgencyParams,
  ZHasDefaultPlanResponse,
  ZPlanAllResponse,
  ZPlanList,
  ZPlanParams,
  ZPlanRequest,
  ZPlanResponse,
  ZUpdatePlanRequest,
} from '@stn/contracts/businesses';
import { ZErrorResponse, ZListQuery, ZSuccessMessage } from '@stn/contracts/http';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../../platform/auth/plugin.ts';
import type { Deps } from '../../../platform/deps.ts';
import { notFound } from '../../../platform/http/errors.ts';
import { listEnvelope } from '../../../platform/http/pagination.ts';
import { errorResponses as errors, okMessage } from '../../../platform/http/replies.ts';
import { type Ctx, targetAgency, userContext } from '../../../platform/tenancy/context.ts';
import { allPlans, deletePlan, getPlan, hasDefaultPlan, listPlans, savePlan } from '../service.ts';

// Subscription plans of spec 001 §7: AgencyAdmin, AccountManager, FinanaceManager; platform admins.
const tags = ['plans'];
const config = { capability: 'plans.manage' as const };
const base = '/v1/agencies/:agency_id/subscription/plans';
const ok = (request: FastifyRequest, key: string) => okMessage(request, `businesses.${key}`);

/** The caller's context and the agency it names: its own (another answers 404), or for an Admin any existing one. */
async function target(deps: Deps, request: FastifyRequest & { params: { agency_id: number } }) {
  const ctx = userContext(deps, actorOf(request));
  const agencyId = targetAgency(ctx, request.params.agency_id);
  if (!(await deps.ports.accounts.agencyExists(ctx, { id: agencyId }))) throw notFound();
  return { ctx, agencyId };
}

/** A service call's arguments: the context and the target agency with the rest of the input. */
async function args<T extends object>(
  deps: Deps,
  request: FastifyRequest & { params: { agency_id: number } },
  more: T = {} as T,
): Promise<[Ctx, { agencyId: number } & T]> {
  const { ctx, agencyId } = await target(deps, request);
  return [ctx, { agencyId, ...more }];
}

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
      const { ctx, agencyId } = await target(deps, request);
      const r = await listPlans(ctx, { agencyId, query: request.query });
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
      data: await allPlans(...(await args(deps, request))),
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
      data: await hasDefaultPlan(...(await args(deps, request))),
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
      data: await savePlan(...(await args(deps, request, { plan: request.body }))),
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
      data: await getPlan(...(await args(deps, request, { planId: request.params.plan_id }))),
    }),
  );

  app.put(
    `${base}/:plan_id`,
    {
      config,
      schema: {
        tags,
        summary: 'Edit a plan: a field (or feature) left out keeps its value',
        params: ZPlanParams,
        body: ZUpdatePlanRequest,
        response: { 200: ZPlanResponse, ...errors },
      },
    },
    async (request) => ({
      ...ok(request, 'plans.updated'),
      data: await savePlan(
        ...(await args(deps, request, { plan: request.body, planId: request.params.plan_id })),
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
      const { ctx, agencyId } = await target(deps, request);
      const planId = request.params.plan_id;
      await deletePlan(ctx, {
        agencyId,
        planId,
        businessesOnPlan: (tx: Ctx) => deps.ports.accounts.businessesOnPlan(tx, { agencyId, planId }),
      });
      return ok(request, 'plans.deleted');
    },
  );
};
