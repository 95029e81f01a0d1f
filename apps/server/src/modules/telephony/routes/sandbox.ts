// The Sandbox Phones control API (ADR 030): HTTP only. A business user who handles calls (agency and
// platform staff while impersonating one) plays the simulated phones of the carrier sandbox: answers,
// presses digits, hangs up, texts and dials its numbers. 404 unless the business's agency uses the sandbox.
import { ZErrorResponse } from '@stn/contracts/http';
import {
  ZCallbackAnswer,
  ZSandboxCallbackInput,
  ZSandboxClockAdvance,
  ZSandboxClockResponse,
  ZSandboxDial,
  ZSandboxDigits,
  ZSandboxFailInput,
  ZSandboxFailingNumbersResponse,
  ZSandboxPhoneParams,
  ZSandboxPhoneResponse,
  ZSandboxPhonesResponse,
  ZSandboxText,
} from '@stn/contracts/telephony';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../../platform/deps.ts';
import { ctxOf } from '../../../platform/tenancy/request.ts';
import {
  actOnSandboxPhone,
  advanceSandboxClock,
  failSandboxNumber,
  fromSandboxPhone,
  listSandboxPhones,
  pressOnSandboxPhone,
  type SandboxPhoneAction,
  sandboxCallback,
  sandboxClock,
  sandboxFailingNumbers,
} from '../sandbox-phones.ts';

const tags = ['sandbox'];
const config = { capability: 'calls.use' as const };
const errors = {
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  422: ZErrorResponse,
  429: ZErrorResponse,
};

const ACTIONS: { path: string; action: SandboxPhoneAction; summary: string }[] = [
  { path: 'answer', action: 'answer', summary: 'Answer the ringing call as a person' },
  { path: 'voicemail', action: 'voicemail', summary: "Let the phone's voicemail answer the ringing call" },
  { path: 'hangup', action: 'hangup', summary: 'Hang up the call in progress (or stop it ringing)' },
  { path: 'reject', action: 'reject', summary: 'Reject the ringing call (busy)' },
];

export const sandboxPhonesRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/sandbox/phones',
    {
      config,
      schema: {
        tags,
        summary:
          "The carrier sandbox's simulated phones this business may see: its installs' staff phones, its visitors and callers",
        response: { 200: ZSandboxPhonesResponse, ...errors },
      },
    },
    async (request) => ({ data: await listSandboxPhones(ctxOf(deps, request)) }),
  );

  for (const { path, action, summary } of ACTIONS) {
    app.post(
      `/v1/sandbox/phones/:number/${path}`,
      {
        config,
        schema: {
          tags,
          summary,
          params: ZSandboxPhoneParams,
          response: { 200: ZSandboxPhoneResponse, ...errors },
        },
      },
      async (request) => ({
        data: await actOnSandboxPhone(ctxOf(deps, request), { number: request.params.number, action }),
      }),
    );
  }

  app.get(
    '/v1/sandbox/clock',
    {
      config,
      schema: {
        tags,
        summary: "The sandbox carrier's time, and whether it is a manual clock (SANDBOX_CLOCK=manual)",
        response: { 200: ZSandboxClockResponse, ...errors },
      },
    },
    async (request) => ({ data: await sandboxClock(ctxOf(deps, request)) }),
  );

  app.post(
    '/v1/sandbox/clock/advance',
    {
      config,
      schema: {
        tags,
        summary:
          'Moves a manual sandbox clock on: the calls, ring timeouts and automation waits due meanwhile happen',
        body: ZSandboxClockAdvance,
        response: { 200: ZSandboxClockResponse, ...errors },
      },
    },
    async (request) => ({
      data: await advanceSandboxClock(ctxOf(deps, request), { seconds: request.body.seconds }),
    }),
  );

  app.post(
    '/v1/sandbox/phones/:number/press',
    {
      config,
      schema: {
        tags,
        summary: 'Press digits while the call asks for them (the "press 1" of a callback)',
        params: ZSandboxPhoneParams,
        body: ZSandboxDigits,
        response: { 200: ZSandboxPhoneResponse, ...errors },
      },
    },
    async (request) => ({
      data: await pressOnSandboxPhone(ctxOf(deps, request), {
        number: request.params.number,
        digits: request.body.digits,
      }),
    }),
  );

  app.post(
    '/v1/sandbox/phones/:number/texts',
    {
      config,
      schema: {
        tags,
        summary: "The phone texts one of the business's numbers",
        params: ZSandboxPhoneParams,
        body: ZSandboxText,
        response: { 200: ZSandboxPhoneResponse, ...errors },
      },
    },
    async (request) => ({
      data: await fromSandboxPhone(ctxOf(deps, request), {
        number: request.params.number,
        kind: 'text',
        to: request.body.to,
        body: request.body.body,
      }),
    }),
  );

  app.post(
    '/v1/sandbox/phones/:number/dial',
    {
      config,
      schema: {
        tags,
        summary: "The phone calls one of the business's numbers (an inbound call)",
        params: ZSandboxPhoneParams,
        body: ZSandboxDial,
        response: { 200: ZSandboxPhoneResponse, ...errors },
      },
    },
    async (request) => ({
      data: await fromSandboxPhone(ctxOf(deps, request), {
        number: request.params.number,
        kind: 'dial',
        to: request.body.to,
      }),
    }),
  );

  app.get(
    '/v1/sandbox/failing-numbers',
    {
      config,
      schema: {
        tags,
        summary: "The phones the agency's sandbox texts fail to, with each one's carrier error code",
        response: { 200: ZSandboxFailingNumbersResponse, ...errors },
      },
    },
    async (request) => ({ data: await sandboxFailingNumbers(ctxOf(deps, request)) }),
  );

  app.put(
    '/v1/sandbox/failing-numbers/:number',
    {
      config,
      schema: {
        tags,
        summary:
          "Make texts to this phone fail with a carrier error code (refused, failed or undelivered), for the agency's sandbox account",
        params: ZSandboxPhoneParams,
        body: ZSandboxFailInput,
        response: { 200: ZSandboxFailingNumbersResponse, ...errors },
      },
    },
    async (request) => ({
      data: await failSandboxNumber(ctxOf(deps, request), {
        number: request.params.number,
        code: request.body.code,
      }),
    }),
  );

  app.delete(
    '/v1/sandbox/failing-numbers/:number',
    {
      config,
      schema: {
        tags,
        summary: 'Texts to this phone work again',
        params: ZSandboxPhoneParams,
        response: { 200: ZSandboxFailingNumbersResponse, ...errors },
      },
    },
    async (request) => ({
      data: await failSandboxNumber(ctxOf(deps, request), { number: request.params.number, code: null }),
    }),
  );

  app.post(
    '/v1/sandbox/callback',
    {
      config,
      schema: {
        tags,
        summary:
          "The visitor's phone asks for a callback from one of the business's installs, as the widget does (same checks, same answer)",
        body: ZSandboxCallbackInput,
        response: { 200: ZCallbackAnswer, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await sandboxCallback(ctxOf(deps, request), { ...request.body, ip: request.ip }),
    }),
  );
};
