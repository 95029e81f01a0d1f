import {
  ZContactImportRequest,
  ZContactImportStarted,
  ZContactImportStatusResponse,
} from '@stn/contracts/contacts';
import { ZIdParams } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import { exportContacts, importTemplate } from '../export.ts';
import { importStatus, isDuplicateNote, startImport } from '../import.ts';
import { contactsAccess as config, errors, t } from './common.ts';

const tags = ['contacts'];

export const importRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.post(
    '/v1/contacts/import',
    {
      config,
      // 10,000 rows with a few custom fields: a few MB of JSON.
      bodyLimit: 9 * 1024 * 1024,
      schema: {
        tags,
        summary:
          'Import contacts from a CSV file (csv: its text; phone required, first_name, last_name, email, birthday, tags, custom field keys; 10,000 rows). Answers { import_id } at once; a job imports the rows',
        body: ZContactImportRequest,
        response: { 200: ZContactImportStarted, ...errors },
      },
    },
    async (request) => {
      const started = await startImport(ctxOf(deps, request), request.body);
      return {
        success: true as const,
        message: t(request, 'contacts.import_started'),
        data: started,
        import_id: started.import_id,
      };
    },
  );

  app.get(
    '/v1/contacts/import/:id',
    {
      config,
      schema: {
        tags,
        summary:
          "An import's progress: status (queued, running, done, failed), processed, total, imported (new contacts), updated, skipped, errors [{ line, message }] and duplicate_rows [{ line, message }]",
        params: ZIdParams,
        response: { 200: ZContactImportStatusResponse, ...errors },
      },
    },
    async (request) => {
      const s = await importStatus(ctxOf(deps, request), { id: request.params.id });
      const says = (e: (typeof s.errors)[number]) => ({
        line: e.line,
        message: translate(e.key, request.lang, e.params ?? {}),
      });
      const data = {
        id: s.id,
        status: s.status,
        duplicates: s.duplicates,
        processed: s.processed,
        total: s.total,
        imported: s.imported,
        updated: s.updated,
        skipped: s.skipped,
        errors: s.errors.filter((e) => !isDuplicateNote(e.key)).map(says),
        duplicate_rows: s.errors.filter((e) => isDuplicateNote(e.key)).map(says),
      };
      return { success: true as const, ...data, data };
    },
  );

  app.get(
    '/v1/contacts/template-download',
    {
      config,
      schema: {
        tags,
        summary: 'The CSV template of the import: its columns and the active custom field keys',
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="contacts-template.csv"')
        .send(await importTemplate(ctxOf(deps, request))),
  );

  app.get(
    '/v1/chats/installs/:id/contacts/export',
    {
      config,
      schema: {
        tags,
        summary: "CSV file of an install's contacts (the import's columns first, so it imports back)",
        params: ZIdParams,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { csv, filename } = await exportContacts(ctxOf(deps, request), { installId: request.params.id });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(csv);
    },
  );
};
