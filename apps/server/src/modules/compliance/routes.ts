import { ZErrorResponse, ZIdParams, ZListQuery, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  type TPhoneList,
  ZPhoneImportRequest,
  ZPhoneImportResponse,
  ZPhoneListList,
  ZPhoneListRequest,
  ZPhoneListResponse,
} from '@stn/contracts/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import { userContext } from '../../platform/tenancy/context.ts';
import { addToPhoneList, importPhoneList, listPhoneList, removeFromPhoneList } from './service.ts';

const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };

export const phoneListsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  for (const list of ['blacklist', 'whitelist'] as const satisfies readonly TPhoneList[]) {
    const tags = [list];
    // Platform admins (platform-wide list) and business managers (their business's list).
    const config = { capability: `${list}.manage` as const };
    app.get(
      `/v1/${list}`,
      {
        config,
        schema: {
          tags,
          summary: `The ${list} (platform-wide for admins, the business's for business users), 10 per page`,
          querystring: ZListQuery,
          response: { 200: ZPhoneListList, ...denied, 422: ZErrorResponse },
        },
      },
      async (request) => listPhoneList(userContext(deps, actorOf(request)), { list, query: request.query }),
    );

    app.post(
      `/v1/${list}`,
      {
        config,
        schema: {
          tags,
          summary: `Add a number to the ${list} (stored in E.164; a duplicate is a 422)`,
          body: ZPhoneListRequest,
          response: { 200: ZPhoneListResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        message: translate(`users.phone_lists.${list}_added`, request.lang),
        data: await addToPhoneList(userContext(deps, actorOf(request)), { ...request.body, list }),
      }),
    );

    app.delete(
      `/v1/${list}/:id`,
      {
        config,
        schema: {
          tags,
          summary: `Remove a number from the ${list}`,
          params: ZIdParams,
          response: { 200: ZSuccessMessage, ...errors },
        },
      },
      async (request) => {
        await removeFromPhoneList(userContext(deps, actorOf(request)), {
          list,
          id: request.params.id,
          client: clientOf(request),
        });
        return {
          success: true as const,
          message: translate(`users.phone_lists.${list}_deleted`, request.lang),
        };
      },
    );
  }

  app.post(
    '/v1/blacklist/import',
    {
      config: { capability: 'blacklist.manage' },
      schema: {
        tags: ['blacklist'],
        summary:
          'Import numbers (phones: a list, or csv: the text of a CSV file); invalid and listed ones are skipped',
        body: ZPhoneImportRequest,
        response: { 200: ZPhoneImportResponse, ...errors },
      },
    },
    async (request) => {
      const data = await importPhoneList(userContext(deps, actorOf(request)), {
        ...request.body,
        list: 'blacklist',
      });
      return {
        success: true as const,
        message: translate('users.phone_lists.imported', request.lang, {
          count: data.imported,
          skipped: data.skipped,
        }),
        data,
      };
    },
  );
};
