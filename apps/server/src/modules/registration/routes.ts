import { ZNoBody } from '@stn/contracts/contacts';
import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZCampaignInput,
  ZCampaignResponse,
  ZProfileEvaluationResponse,
  ZProfileInput,
  ZProfileListResponse,
  ZProfileResponse,
  ZProfileSidParams,
  ZTollfreeInput,
  ZTollfreeResponse,
} from '@stn/contracts/registration';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  campaignStatus,
  deleteProfile,
  getProfile,
  listProfiles,
  registerCampaign,
  registerProfile,
  saveProfile,
  setPrimaryProfile,
  submitTollfree,
  syncCampaign,
  tollfreeStatus,
  validateProfile,
} from './service.ts';

// SMS registration (issue 26, ADR 092; spec 001 "Phone-provider profiles and campaigns" and
// `/v1/installs/{id}/tollfree-verification`). Profiles and the campaign are the AgencyAdmin's
// (agencyTelephony.manage); the business's admins read the registration and verify their toll-free numbers.
const tags = ['registration'];
const agency = { capability: 'agencyTelephony.manage' } as const;
const business = { capability: 'businessSettings.manage' } as const;
const errors = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  422: ZErrorResponse,
};
const ZInstallParams = z.object({ id: z.coerce.number().int().positive() });

export const registrationRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  const t = (request: FastifyRequest, key: string) => translate(key, request.lang);

  app.get(
    '/v1/twilio/profiles',
    {
      config: agency,
      schema: {
        tags,
        summary: "The agency's customer profiles (TrustHub)",
        response: { 200: ZProfileListResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await listProfiles(ctxOf(deps, request)) }),
  );

  app.post(
    '/v1/twilio/profiles',
    {
      config: agency,
      schema: {
        tags,
        summary:
          "A new customer profile (a draft at the carrier), or with `id` a draft's or a rejected one's changes",
        body: ZProfileInput,
        response: { 200: ZProfileResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'registration.profile_saved'),
      data: await saveProfile(ctxOf(deps, request), request.body),
    }),
  );

  app.get(
    '/v1/twilio/profiles/:id',
    {
      config: agency,
      schema: {
        tags,
        summary: 'A customer profile',
        params: ZIdParams,
        response: { 200: ZProfileResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getProfile(ctxOf(deps, request), request.params),
    }),
  );

  app.delete(
    '/v1/twilio/profiles/:id',
    {
      config: agency,
      schema: {
        tags,
        summary: 'Deletes a customer profile no registration is built on',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteProfile(ctxOf(deps, request), request.params);
      return { success: true as const, message: t(request, 'registration.profile_deleted') };
    },
  );

  app.post(
    '/v1/twilio/profiles/:id/validate',
    {
      config: agency,
      schema: {
        tags,
        summary: "The carrier's evaluation: what the profile lacks before it can be submitted",
        params: ZIdParams,
        body: ZNoBody,
        response: { 200: ZProfileEvaluationResponse, ...errors },
      },
    },
    async (request) => {
      const data = await validateProfile(ctxOf(deps, request), request.params);
      return {
        success: true as const,
        message: t(
          request,
          data.compliant ? 'registration.profile_compliant' : 'registration.profile_incomplete',
        ),
        data,
      };
    },
  );

  app.post(
    '/v1/twilio/profiles/:sid/register',
    {
      config: agency,
      schema: {
        tags,
        summary: 'Submits the profile (its id or BU… sid) for review when nothing is missing',
        params: ZProfileSidParams,
        body: ZNoBody,
        response: { 200: ZProfileResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'registration.profile_submitted_ok'),
      data: await registerProfile(ctxOf(deps, request), request.params),
    }),
  );

  app.post(
    '/v1/twilio/profiles/:id/set-mian',
    {
      config: agency,
      schema: {
        tags,
        summary: "The agency's primary profile (spelling as in the product)",
        params: ZIdParams,
        body: ZNoBody,
        response: { 200: ZProfileResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'registration.profile_primary'),
      data: await setPrimaryProfile(ctxOf(deps, request), request.params),
    }),
  );

  app.get(
    '/v1/twilio/campaign',
    {
      config: { capability: 'smsRegistration.view' },
      schema: {
        tags,
        summary: "The agency's A2P brand and campaign, and the numbers it covers (a business: its own)",
        response: { 200: ZCampaignResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await campaignStatus(ctxOf(deps, request)) }),
  );

  app.post(
    '/v1/twilio/register-campaign',
    {
      config: agency,
      schema: {
        tags,
        summary: 'Registers the brand and the campaign (or a failed registration fixed)',
        body: ZCampaignInput,
        response: { 200: ZCampaignResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'registration.campaign_registered'),
      data: await registerCampaign(ctxOf(deps, request), request.body),
    }),
  );

  app.post(
    '/v1/twilio/sync-campaign',
    {
      config: agency,
      schema: {
        tags,
        summary: 'Asks the carrier for the statuses now',
        body: ZNoBody,
        response: { 200: ZCampaignResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'registration.synced'),
      data: await syncCampaign(ctxOf(deps, request)),
    }),
  );

  app.get(
    '/v1/installs/:id/tollfree-verification',
    {
      config: business,
      schema: {
        tags,
        summary: "The install's number and its toll-free verification",
        params: ZInstallParams,
        response: { 200: ZTollfreeResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await tollfreeStatus(ctxOf(deps, request), { installId: request.params.id }),
    }),
  );

  app.post(
    '/v1/installs/:id/tollfree-verification',
    {
      config: business,
      schema: {
        tags,
        summary: "Files the install's toll-free number's verification (or a rejected one's fix)",
        params: ZInstallParams,
        body: ZTollfreeInput,
        response: { 200: ZTollfreeResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'registration.tollfree_submitted'),
      data: await submitTollfree(ctxOf(deps, request), { installId: request.params.id, body: request.body }),
    }),
  );
};
