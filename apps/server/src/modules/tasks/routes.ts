import { ZErrorResponse, ZIdParams, ZSuccessMessage } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import { ZTaskAll, ZTaskList, ZTaskListQuery, ZTaskRequest, ZTaskResponse } from '@stn/contracts/tasks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { allTasks, createTask, deleteTask, getTask, listTasks, updateTask } from './service.ts';

const tags = ['tasks'];
const denied = { 401: ZErrorResponse, 403: ZErrorResponse };
const errors = { ...denied, 404: ZErrorResponse, 422: ZErrorResponse };
const config = { capability: 'tasks.use' } as const;

export const tasksRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/v1/tasks/all',
    {
      config,
      schema: {
        tags,
        summary: 'Every task of the business (search, status open/done)',
        querystring: ZTaskListQuery.pick({ search: true, keyword: true, status: true }),
        response: { 200: ZTaskAll, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await allTasks(ctxOf(deps, request), request.query),
    }),
  );

  app.get(
    '/v1/tasks',
    {
      config,
      schema: {
        tags,
        summary: "The business's tasks (search, status open/done), open first, by due date",
        querystring: ZTaskListQuery,
        response: { 200: ZTaskList, ...denied, 422: ZErrorResponse },
      },
    },
    async (request) => listTasks(ctxOf(deps, request), request.query),
  );

  app.get(
    '/v1/tasks/:id',
    {
      config,
      schema: { tags, summary: 'One task', params: ZIdParams, response: { 200: ZTaskResponse, ...errors } },
    },
    async (request) => ({
      success: true as const,
      data: await getTask(ctxOf(deps, request), request.params.id),
    }),
  );

  app.post(
    '/v1/tasks',
    {
      config,
      schema: {
        tags,
        summary: 'Create a task (title, description, contact_id, user_id: the assignee, due_date, status)',
        body: ZTaskRequest,
        response: { 200: ZTaskResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('tasks.created', request.lang),
      data: await createTask(ctxOf(deps, request), request.body),
    }),
  );

  app.put(
    '/v1/tasks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a task, or mark it done or open again',
        params: ZIdParams,
        body: ZTaskRequest,
        response: { 200: ZTaskResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('tasks.updated', request.lang),
      data: await updateTask(ctxOf(deps, request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/v1/tasks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a task',
        params: ZIdParams,
        response: { 200: ZSuccessMessage, ...errors },
      },
    },
    async (request) => {
      await deleteTask(ctxOf(deps, request), request.params.id);
      return { success: true as const, message: translate('tasks.deleted', request.lang) };
    },
  );
};
