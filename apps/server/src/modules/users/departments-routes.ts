import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZDepartmentAll,
  ZDepartmentList,
  ZDepartmentListQuery,
  ZDepartmentRequest,
  ZDepartmentResponse,
  ZToggleActiveRequest,
  ZUserSummaryList,
} from '@stn/contracts/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  allDepartments,
  createDepartment,
  deleteDepartment,
  departmentSmsAgents,
  getDepartment,
  listDepartments,
  toggleDepartment,
  updateDepartment,
} from './departments-service.ts';

const tags = ['departments'];
const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };

export const departmentsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/departments',
    {
      config: { capability: 'departments.manage' },
      schema: {
        tags,
        summary: "The business's departments (keyword, status active/inactive), 10 per page",
        querystring: ZDepartmentListQuery,
        response: { 200: ZDepartmentList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listDepartments(ctxOf(deps, request), request.query),
  );

  for (const [path, channel, summary] of [
    ['/v1/departments/all', undefined, 'Every department of the business'],
    ['/v1/departments/sms-departments', 'sms', 'Active departments with SMS agents'],
    ['/v1/departments/voice-departments', 'voice', 'Active departments with voice agents'],
  ] as const) {
    app.get(
      path,
      {
        config: { capability: 'team.view' },
        schema: { tags, summary, response: { 200: ZDepartmentAll, ...denied } },
      },
      async (request) => ({
        success: true as const,
        data: await allDepartments(ctxOf(deps, request), channel),
      }),
    );
  }

  app.get(
    '/v1/departments/:id/sms-agents',
    {
      config: { capability: 'team.view' },
      schema: {
        tags,
        summary: "A department's SMS agents",
        params: ZIdParams,
        response: { 200: ZUserSummaryList, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await departmentSmsAgents(ctxOf(deps, request), request.params.id),
    }),
  );

  app.get(
    '/v1/departments/:id',
    {
      config: { capability: 'departments.manage' },
      schema: {
        tags,
        summary: 'One department with its agents',
        params: ZIdParams,
        response: { 200: ZDepartmentResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getDepartment(ctxOf(deps, request), request.params.id),
    }),
  );

  app.post(
    '/v1/departments',
    {
      config: { capability: 'departments.manage' },
      schema: {
        tags,
        summary: 'Create a department (name, active, sms_agents, voice_agents: user ids of this business)',
        body: ZDepartmentRequest,
        response: { 200: ZDepartmentResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('users.departments.created', request.lang),
      data: await createDepartment(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/departments/:id',
    {
      config: { capability: 'departments.manage' },
      schema: {
        tags,
        summary: 'Edit a department; its agent lists are replaced',
        params: ZIdParams,
        body: ZDepartmentRequest,
        response: { 200: ZDepartmentResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('users.departments.updated', request.lang),
      data: await updateDepartment(ctxOf(deps, request), request.params.id, request.body),
    }),
  );

  app.put(
    '/v1/departments/:id/toggle-active',
    {
      config: { capability: 'departments.manage' },
      schema: {
        tags,
        summary: 'Activate or deactivate a department',
        params: ZIdParams,
        body: ZToggleActiveRequest,
        response: { 200: ZDepartmentResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate(
        request.body.active ? 'users.departments.activated' : 'users.departments.deactivated',
        request.lang,
      ),
      data: await toggleDepartment(ctxOf(deps, request), request.params.id, request.body.active),
    }),
  );

  app.delete(
    '/v1/departments/:id',
    {
      config: { capability: 'departments.manage' },
      schema: {
        tags,
        summary: 'Delete a department',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteDepartment(ctxOf(deps, request), request.params.id, clientOf(request));
      return { success: true as const, message: translate('users.departments.deleted', request.lang) };
    },
  );
};
