import { ZErrorResponse, ZIdParams, ZListQuery, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZReleaseNoteList,
  ZReleaseNoteListQuery,
  ZReleaseNoteRequest,
  ZReleaseNoteResponse,
} from '@stn/contracts/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../../platform/auth/plugin.ts';
import type { Deps } from '../../../platform/deps.ts';
import { clientOf } from '../../../platform/http/client.ts';
import { userContext } from '../../../platform/tenancy/context.ts';
import {
  createReleaseNote,
  deleteReleaseNote,
  getReleaseNote,
  listReleaseNotes,
  publishedReleaseNotes,
  updateReleaseNote,
} from '../release-notes.ts';

const tags = ['release notes'];
// Spec 000 §6: only Admin and SuperAdmin manage release notes.
const config = { capability: 'releaseNotes.manage' as const };
const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };

export const releaseNotesRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/release-notes/list',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Published release notes, newest first (the public /release-notes page)',
        security: [],
        querystring: ZListQuery,
        response: { 200: ZReleaseNoteList, 422: ZErrorResponse },
      },
    },
    async (request) => publishedReleaseNotes(deps, request.query),
  );

  app.get(
    '/v1/release-notes',
    {
      config,
      schema: {
        tags,
        summary: 'Every release note (keyword, status published/draft), 10 per page',
        querystring: ZReleaseNoteListQuery,
        response: { 200: ZReleaseNoteList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listReleaseNotes(userContext(deps, actorOf(request)), request.query),
  );

  app.get(
    '/v1/release-notes/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One release note',
        params: ZIdParams,
        response: { 200: ZReleaseNoteResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getReleaseNote(userContext(deps, actorOf(request)), { id: request.params.id }),
    }),
  );

  app.post(
    '/v1/release-notes',
    {
      config,
      schema: {
        tags,
        summary: 'Write a release note (title, content, published)',
        body: ZReleaseNoteRequest,
        response: { 200: ZReleaseNoteResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('users.release_notes.created', request.lang),
      data: await createReleaseNote(userContext(deps, actorOf(request)), request.body),
    }),
  );

  app.put(
    '/v1/release-notes/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a release note',
        params: ZIdParams,
        body: ZReleaseNoteRequest,
        response: { 200: ZReleaseNoteResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('users.release_notes.updated', request.lang),
      data: await updateReleaseNote(userContext(deps, actorOf(request)), {
        ...request.body,
        id: request.params.id,
      }),
    }),
  );

  app.delete(
    '/v1/release-notes/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a release note',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteReleaseNote(userContext(deps, actorOf(request)), {
        id: request.params.id,
        client: clientOf(request),
      });
      return { success: true as const, message: translate('users.release_notes.deleted', request.lang) };
    },
  );
};
