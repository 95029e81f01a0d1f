// The business's own e-mail (issue 25, ADR 090; spec 001 "Integrations"): e-mail accounts, the business's
// integrations (types, type/{type}, CRUD of its SendGrid key), the agency's own SMTP account
// (/v1/agencies/integartions, spelling as in the product), and the mail sent through them.
import type { TCapability } from '@stn/contracts/capabilities';
import { allItemsOf, itemAnswerOf, ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  MAIL_INTEGRATION_TYPES,
  ZEmailAccount,
  ZEmailAccountInput,
  ZMailIntegration,
  ZMailIntegrationInput,
  ZMailIntegrationOfType,
  ZMailIntegrationType,
} from '@stn/contracts/own-mail';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  createAccount,
  createIntegration,
  deleteAccount,
  deleteIntegration,
  getAccount,
  getIntegration,
  integrationOfType,
  integrationTypes,
  listAccounts,
  listIntegrations,
  mailOwnerOf,
  updateAccount,
  updateIntegration,
} from './mail-service.ts';
import { recentOwnMail } from './own-mail.ts';

const tags = ['integrations'];
const errors = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  422: ZErrorResponse,
};
const business: { capability: TCapability } = { capability: 'businessSettings.manage' };
const agency: { capability: TCapability } = { capability: 'agencyIntegrations.manage' };
const accounts: { capability: TCapability } = { capability: 'emailAccounts.manage' };

const ZOwnMail = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  source: z.string(),
  status: z.enum(['queued', 'sent', 'failed']),
  error: z.string().nullable(),
  via: z.enum(['smtp', 'sendgrid']),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});

export const ownMailRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  // ---------------------------------------------------------------- e-mail accounts (business, agency)
  for (const [base, config, forAgency] of [
    ['/v1/email-accounts', accounts, false],
    ['/v1/agencies/integartions', agency, true],
  ] as const) {
    const who = forAgency ? "the agency's own" : "the business's";
    app.get(
      base,
      {
        config,
        schema: {
          tags,
          summary: `${who} SMTP e-mail accounts`,
          response: { 200: allItemsOf(ZEmailAccount), ...errors },
        },
      },
      async (request) => {
        const ctx = ctxOf(deps, request);
        return { success: true as const, data: await listAccounts(ctx, mailOwnerOf(ctx, forAgency)) };
      },
    );
    app.post(
      base,
      {
        config,
        schema: {
          tags,
          summary: `Connect ${who} SMTP account: saved only once the server accepted a connection with it`,
          body: ZEmailAccountInput,
          response: { 200: itemAnswerOf(ZEmailAccount), ...errors },
        },
      },
      async (request) => {
        const ctx = ctxOf(deps, request);
        const data = await createAccount(ctx, { owner: mailOwnerOf(ctx, forAgency), account: request.body });
        return { success: true as const, message: translate('ownMail.account_saved', request.lang), data };
      },
    );
    app.get(
      `${base}/:id`,
      {
        config,
        schema: {
          tags,
          summary: `One of ${who} e-mail accounts (the password never answered)`,
          params: ZIdParams,
          response: { 200: itemAnswerOf(ZEmailAccount), ...errors },
        },
      },
      async (request) => {
        const ctx = ctxOf(deps, request);
        const data = await getAccount(ctx, { owner: mailOwnerOf(ctx, forAgency), id: request.params.id });
        return { success: true as const, data };
      },
    );
    app.put(
      `${base}/:id`,
      {
        config,
        schema: {
          tags,
          summary: `Change one of ${who} e-mail accounts (checked again; an empty password keeps the old one)`,
          params: ZIdParams,
          body: ZEmailAccountInput,
          response: { 200: itemAnswerOf(ZEmailAccount), ...errors },
        },
      },
      async (request) => {
        const ctx = ctxOf(deps, request);
        const data = await updateAccount(ctx, {
          owner: mailOwnerOf(ctx, forAgency),
          id: request.params.id,
          account: request.body,
        });
        return { success: true as const, message: translate('ownMail.account_saved', request.lang), data };
      },
    );
    app.delete(
      `${base}/:id`,
      {
        config,
        schema: {
          tags,
          summary: `Delete one of ${who} e-mail accounts`,
          params: ZIdParams,
          response: { 200: ZSuccessMessage, ...errors },
        },
      },
      async (request) => {
        const ctx = ctxOf(deps, request);
        await deleteAccount(ctx, { owner: mailOwnerOf(ctx, forAgency), id: request.params.id });
        return { success: true as const, message: translate('ownMail.account_deleted', request.lang) };
      },
    );
  }

  app.get(
    '/v1/own-mail',
    {
      config: accounts,
      schema: {
        tags,
        summary: "The last mail sent through the business's own e-mail, with its status",
        response: { 200: allItemsOf(ZOwnMail), ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      return { success: true as const, data: await recentOwnMail(ctx, mailOwnerOf(ctx)) };
    },
  );

  // ---------------------------------------------------------------- the business's integrations
  app.get(
    '/v1/businesses/integrations/types',
    {
      config: business,
      schema: {
        tags,
        summary: 'The kinds of integration a business may have (sendgrid, email) and whether it has each',
        response: { 200: allItemsOf(ZMailIntegrationType), ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await integrationTypes(ctxOf(deps, request)) }),
  );
  app.get(
    '/v1/businesses/integrations/type/:type',
    {
      config: business,
      schema: {
        tags,
        summary: "The business's integration of a kind: its SendGrid key, or its default e-mail account",
        params: z.object({ type: z.enum(MAIL_INTEGRATION_TYPES) }),
        response: { 200: itemAnswerOf(ZMailIntegrationOfType), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await integrationOfType(ctxOf(deps, request), { type: request.params.type }),
    }),
  );
  app.get(
    '/v1/businesses/integrations',
    {
      config: business,
      schema: {
        tags,
        summary: "The business's keyed integrations (SendGrid)",
        response: { 200: allItemsOf(ZMailIntegration), ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      return { success: true as const, data: await listIntegrations(ctx, mailOwnerOf(ctx)) };
    },
  );
  app.post(
    '/v1/businesses/integrations',
    {
      config: business,
      schema: {
        tags,
        summary: 'Connect SendGrid: the API key is checked with SendGrid before it is saved (sealed)',
        body: ZMailIntegrationInput,
        response: { 200: itemAnswerOf(ZMailIntegration), ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const data = await createIntegration(ctx, { owner: mailOwnerOf(ctx), integration: request.body });
      return { success: true as const, message: translate('ownMail.integration_saved', request.lang), data };
    },
  );
  app.get(
    '/v1/businesses/integrations/:id',
    {
      config: business,
      schema: {
        tags,
        summary: "One of the business's integrations (the key never answered)",
        params: ZIdParams,
        response: { 200: itemAnswerOf(ZMailIntegration), ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      return {
        success: true as const,
        data: await getIntegration(ctx, { owner: mailOwnerOf(ctx), id: request.params.id }),
      };
    },
  );
  app.put(
    '/v1/businesses/integrations/:id',
    {
      config: business,
      schema: {
        tags,
        summary: 'Change the SendGrid integration (a new key is checked; an empty key keeps the old one)',
        params: ZIdParams,
        body: ZMailIntegrationInput,
        response: { 200: itemAnswerOf(ZMailIntegration), ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const data = await updateIntegration(ctx, {
        owner: mailOwnerOf(ctx),
        id: request.params.id,
        integration: request.body,
      });
      return { success: true as const, message: translate('ownMail.integration_saved', request.lang), data };
    },
  );
  app.delete(
    '/v1/businesses/integrations/:id',
    {
      config: business,
      schema: {
        tags,
        summary: 'Delete the SendGrid integration',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      await deleteIntegration(ctx, { owner: mailOwnerOf(ctx), id: request.params.id });
      return { success: true as const, message: translate('ownMail.integration_deleted', request.lang) };
    },
  );
};
