import {
  ZContactFieldList,
  ZContactFieldResponse,
  ZContactFieldUpdate,
  ZContactFieldWrite,
} from '@stn/contracts/contacts';
import { ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import { createField, deleteField, listFields, updateField } from '../fields.ts';
import { contactsAccess as config, denied, errors, t } from './common.ts';

const tags = ['contacts'];

export const fieldRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/contacts/fields',
    {
      config,
      schema: {
        tags,
        summary: "The business's custom contact fields",
        response: { 200: ZContactFieldList, ...denied },
      },
    },
    async (request) => ({ success: true as const, data: await listFields(ctxOf(deps, request)) }),
  );

  app.get(
    '/v1/contacts/fields/active',
    {
      config,
      schema: {
        tags,
        summary: 'The active custom contact fields',
        response: { 200: ZContactFieldList, ...denied },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listFields(ctxOf(deps, request), { activeOnly: true }),
    }),
  );

  app.post(
    '/v1/contacts/fields',
    {
      config,
      schema: {
        tags,
        summary: 'Create a custom field (key from the label when not given; lower case, digits and _)',
        body: ZContactFieldWrite,
        response: { 200: ZContactFieldResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: t(request, 'contacts.field_created'),
      data: await createField(ctxOf(deps, request), request.body),
    }),
  );

  // The spec writes POST, PUT and DELETE on /v1/contacts/fields/{id}: a POST on an id edits it, as PUT.
  for (const method of ['put', 'post'] as const) {
    app[method](
      '/v1/contacts/fields/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Edit a custom field: label, type, active (its key stays)',
          params: ZIdParams,
          body: ZContactFieldUpdate,
          response: { 200: ZContactFieldResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        message: t(request, 'contacts.field_updated'),
        data: await updateField(ctxOf(deps, request), { ...request.body, id: request.params.id }),
      }),
    );
  }

  app.delete(
    '/v1/contacts/fields/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a custom field',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteField(ctxOf(deps, request), { id: request.params.id });
      return { success: true as const, message: t(request, 'contacts.field_deleted') };
    },
  );
};
