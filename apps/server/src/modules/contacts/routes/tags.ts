import { ZTagAll, ZTagIds, ZTagList, ZTagResponse, ZTagWrite } from '@stn/contracts/contacts';
import { ZErrorResponse, ZIdParams, ZListQuery, ZSuccessMessage } from '@stn/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import { allTags, bulkDeleteTags, createTag, deleteTag, listTags, updateTag } from '../tags.ts';
import { tagsAccess as config, denied, errors, t } from './common.ts';

const tags = ['tags'];

export const tagRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/tags/all',
    {
      // The picker: the contacts screens tag contacts too (ADR 047).
      config: { capability: 'tags.pick' },
      schema: {
        tags,
        summary: 'Every tag of the business (id, name), by name',
        response: { 200: ZTagAll, ...denied },
      },
    },
    async (request) => ({ success: true as const, data: await allTags(ctxOf(deps, request)) }),
  );

  app.get(
    '/v1/tags',
    {
      config,
      schema: {
        tags,
        summary: 'The tags, 10 per page, with how many contacts carry each; keyword',
        querystring: ZListQuery,
        response: { 200: ZTagList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listTags(ctxOf(deps, request), request.query),
  );

  app.post(
    '/v1/tags',
    {
      config,
      schema: {
        tags,
        summary: 'Create a tag (names unique without case)',
        body: ZTagWrite,
        response: { 200: ZTagResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'contacts.tag_created'),
      data: await createTag(ctxOf(deps, request), request.body),
    }),
  );

  app.delete(
    '/v1/tags/bulk',
    {
      config,
      schema: {
        tags,
        summary: 'Delete several tags (body: ids); all must be tags of the business, or none is deleted',
        body: ZTagIds,
        response: {
          200: z.object({
            success: z.literal(true),
            message: z.string(),
            data: z.object({ count: z.number().int() }),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const count = await bulkDeleteTags(ctxOf(deps, request), request.body);
      return {
        success: true as const,
        message: t(request, 'contacts.tags_deleted', { count }),
        data: { count },
      };
    },
  );

  app.put(
    '/v1/tags/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Rename a tag',
        params: ZIdParams,
        body: ZTagWrite,
        response: { 200: ZTagResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'contacts.tag_updated'),
      data: await updateTag(ctxOf(deps, request), { ...request.body, id: request.params.id }),
    }),
  );

  app.delete(
    '/v1/tags/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a tag (its contacts stay)',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteTag(ctxOf(deps, request), { id: request.params.id });
      return { success: true as const, message: t(request, 'contacts.tag_deleted') };
    },
  );
};
