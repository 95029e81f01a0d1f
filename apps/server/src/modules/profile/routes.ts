import { ZErrorResponse } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZCountriesRequest,
  ZProfileQuery,
  ZProfileResponse,
  ZSettingRequest,
  ZUpdateProfileRequest,
  ZUserResponse,
} from '@stn/contracts/profile';
import { ZReleaseNote } from '@stn/contracts/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  impersonator,
  markWhatsNewRead,
  profileUser,
  updateCountries,
  updateProfile,
  updateSettings,
  whatsNew,
} from './service.ts';

const errors = { 401: ZErrorResponse, 422: ZErrorResponse };

export const profileRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  // What's new (issue 23): the release notes an agency admin has not seen yet, and marking them seen.
  app.get(
    '/v1/release-notes/unread',
    {
      config: { capability: 'whatsNew.view' },
      schema: {
        tags: ['release notes'],
        summary: 'Published release notes the caller has not seen yet (newest first, at most 5)',
        response: { 200: z.object({ success: z.literal(true), data: z.array(ZReleaseNote) }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await whatsNew(ctxOf(deps, request), actorOf(request).userId),
    }),
  );
  app.post(
    '/v1/release-notes/read',
    {
      config: { capability: 'whatsNew.view' },
      schema: {
        tags: ['release notes'],
        summary: 'Marks the notes published up to `up_to` (the newest one shown) as seen',
        body: z.object({ up_to: z.iso.datetime({ offset: true }) }),
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      await markWhatsNewRead(ctxOf(deps, request), {
        userId: actorOf(request).userId,
        upTo: request.body.up_to,
      });
      return { success: true as const };
    },
  );

  app.get(
    '/v1/profile',
    {
      schema: {
        tags: ['profile'],
        summary:
          'The signed-in user (with ?i=1 the web app says it holds a main token; the impersonator is named)',
        querystring: ZProfileQuery,
        response: { 200: ZProfileResponse, 401: ZErrorResponse },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const ctx = ctxOf(deps, request);
      return {
        success: true as const,
        data: {
          user: await profileUser(ctx, actor.userId),
          impersonating: actor.tokenKind === 'impersonation',
          impersonator: await impersonator(ctx),
        },
      };
    },
  );

  app.put(
    '/v1/profile',
    {
      schema: {
        tags: ['profile'],
        summary: 'Update name, e-mail, avatar, language or password',
        body: ZUpdateProfileRequest,
        response: { 200: ZUserResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const { emailChanged } = await updateProfile(ctx, request.body);
      const user = await profileUser(ctx, actorOf(request).userId);
      const lang = request.body.language ?? request.lang;
      return {
        success: true as const,
        message: emailChanged
          ? translate('profile.email_change_sent', lang, { email: request.body.email })
          : translate('profile.updated', lang),
        data: { user },
      };
    },
  );

  app.put(
    '/v1/setting',
    {
      schema: {
        tags: ['profile'],
        summary: "Update the user's settings",
        body: ZSettingRequest,
        response: { 200: ZUserResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      await updateSettings(ctx, request.body);
      const user = await profileUser(ctx, actorOf(request).userId);
      const lang = request.body.language ?? request.lang;
      return { success: true as const, message: translate('profile.settings_updated', lang), data: { user } };
    },
  );

  app.put(
    '/v1/countries',
    {
      schema: {
        tags: ['profile'],
        summary: "Set the user's country list",
        body: ZCountriesRequest,
        response: { 200: ZUserResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      await updateCountries(ctx, request.body);
      return {
        success: true as const,
        message: translate('profile.countries_updated', request.lang),
        data: { user: await profileUser(ctx, actorOf(request).userId) },
      };
    },
  );
};
