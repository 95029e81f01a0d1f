import { ZErrorResponse, ZIdParams, ZListQuery, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZAvailableNumberListResponse,
  ZCallerIdVerificationResponse,
  ZNumberAssign,
  ZNumberCheckResponse,
  ZNumberCreate,
  ZNumberListResponse,
  ZNumberPurchase,
  ZNumberResponse,
  ZNumberSearch,
  ZNumberUpdate,
  ZPhoneInput,
} from '@stn/contracts/telephony';
import { z } from '@stn/contracts/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import * as svc from '../numbers.ts';
import { allNumbers, listNumbers } from '../numbers-queries.ts';

// The business's numbers (spec 001 "Installs" number calls and /v1/numbers). HTTP only: the rules are in
// numbers.ts. The install calls also need installs.use, checked by the service.

const errors = { 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse };
const config = { capability: 'numbers.use' as const };
const installTags = ['installs'];
const tags = ['numbers'];
const ZMessageNumber = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ZNumberResponse.shape.data,
});
const ZMessageVerification = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ZCallerIdVerificationResponse.shape.data,
});

export const numbersRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.post(
    '/v1/installs/search-phonenumber',
    {
      config,
      schema: {
        tags: installTags,
        summary: "Numbers the agency's carrier offers, by country and area code",
        body: ZNumberSearch,
        response: { 200: ZAvailableNumberListResponse, ...errors },
      },
    },
    async (request) => ({ data: await svc.searchNumbers(ctxOf(deps, request), request.body) }),
  );

  app.post(
    '/v1/installs/:id/purchase-phonenumber',
    {
      config,
      schema: {
        tags: installTags,
        summary: 'Buy a number for the install (one per install); its calls and texts come to this platform',
        params: ZIdParams,
        body: ZNumberPurchase,
        response: { 200: ZMessageNumber, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('numbers.purchased', request.lang),
      data: await svc.purchaseNumber(ctxOf(deps, request), { ...request.body, installId: request.params.id }),
    }),
  );

  app.post(
    '/v1/installs/:id/assign-phonenumber',
    {
      config,
      schema: {
        tags: installTags,
        summary: "Give the install one of the business's purchased numbers",
        params: ZIdParams,
        body: ZNumberAssign,
        response: { 200: ZMessageNumber, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('numbers.assigned', request.lang),
      data: await svc.assignNumber(ctxOf(deps, request), { ...request.body, installId: request.params.id }),
    }),
  );

  app.post(
    '/v1/installs/:id/release-number',
    {
      config,
      schema: {
        tags: installTags,
        summary: "Release the install's purchased number at the carrier",
        params: ZIdParams,
        response: { 200: ZMessageNumber, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('numbers.released', request.lang),
      data: await svc.releaseInstallNumber(ctxOf(deps, request), { installId: request.params.id }),
    }),
  );

  app.post(
    '/v1/installs/:id/check-number',
    {
      config,
      schema: {
        tags: installTags,
        summary:
          "Check that the carrier still has the install's number and that it points here (re-pointed if not)",
        params: ZIdParams,
        response: { 200: ZNumberCheckResponse, ...errors },
      },
    },
    async (request) => ({
      data: await svc.checkInstallNumber(ctxOf(deps, request), { installId: request.params.id }),
    }),
  );

  app.post(
    '/v1/installs/:id/assign-landline-number',
    {
      config,
      schema: {
        tags: installTags,
        summary: "The business's own landline texts for the install",
        params: ZIdParams,
        body: ZPhoneInput,
        response: { 200: ZMessageNumber, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('numbers.landline_assigned', request.lang),
      data: await svc.assignLandline(ctxOf(deps, request), { ...request.body, installId: request.params.id }),
    }),
  );

  app.post(
    '/v1/installs/:id/disable-landline-number',
    {
      config,
      schema: {
        tags: installTags,
        summary: 'The install stops texting from its landline',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await svc.disableLandline(ctxOf(deps, request), { installId: request.params.id });
      return { success: true as const, message: translate('numbers.landline_disabled', request.lang) };
    },
  );

  app.post(
    '/v1/installs/verify-phone-number',
    {
      config,
      schema: {
        tags: installTags,
        summary: "Start the carrier's caller-id validation call; answers the code the person types",
        body: ZPhoneInput,
        response: { 200: ZMessageVerification, ...errors },
      },
    },
    async (request) => {
      const data = await svc.verifyPhoneNumber(ctxOf(deps, request), request.body);
      return {
        success: true as const,
        message: translate(data.verified ? 'numbers.verified' : 'numbers.verification_started', request.lang),
        data,
      };
    },
  );

  app.post(
    '/v1/installs/check-caller-id',
    {
      config,
      schema: {
        tags: installTags,
        summary: 'Whether the carrier lists the number as a verified caller id (marks it verified)',
        body: ZPhoneInput,
        response: { 200: ZCallerIdVerificationResponse, ...errors },
      },
    },
    async (request) => ({ data: await svc.checkCallerId(ctxOf(deps, request), request.body) }),
  );

  app.get(
    '/v1/numbers',
    {
      config,
      schema: {
        tags,
        summary: "The business's numbers (purchased, landlines, caller ids), paged, by keyword",
        querystring: ZListQuery,
        response: { 200: ZNumberListResponse, ...errors },
      },
    },
    async (request) => listNumbers(ctxOf(deps, request), request.query),
  );

  app.get(
    '/v1/numbers/all',
    {
      config,
      schema: {
        tags,
        summary: "All the business's numbers, for pickers",
        response: { 200: z.object({ data: ZNumberListResponse.shape.data }), ...errors },
      },
    },
    async (request) => ({ data: await allNumbers(ctxOf(deps, request)) }),
  );

  app.get(
    '/v1/numbers/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One number',
        params: ZIdParams,
        response: { 200: ZNumberResponse, ...errors },
      },
    },
    async (request) => ({ data: await svc.getNumber(ctxOf(deps, request), request.params.id) }),
  );

  app.post(
    '/v1/numbers',
    {
      config,
      schema: {
        tags,
        summary: 'Add a caller id or landline number (verified afterwards with the carrier’s call)',
        body: ZNumberCreate,
        response: { 200: ZMessageNumber, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('numbers.created', request.lang),
      data: await svc.createNumber(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/numbers/:id',
    {
      config,
      schema: {
        tags,
        summary: "A number's name, texting switch and install",
        params: ZIdParams,
        body: ZNumberUpdate,
        response: { 200: ZMessageNumber, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('numbers.updated', request.lang),
      data: await svc.updateNumber(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.delete(
    '/v1/numbers/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Release a number (a purchased one goes back to the carrier)',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await svc.deleteNumber(ctxOf(deps, request), request.params.id);
      return { success: true as const, message: translate('numbers.deleted', request.lang) };
    },
  );
};
