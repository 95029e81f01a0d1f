import { z } from 'zod';
import { allItemsOf, itemAnswerOf, listOf, ZListQuery } from './http.ts';

// Tasks (spec 001 "Tasks, tags, broadcasts"): a to-do of the business, optionally about a contact,
// assigned to one of its users, with a due date; open until marked done.

export const TASK_STATUSES = ['open', 'done'] as const;
export const ZTaskStatus = z.enum(TASK_STATUSES);
export type TTaskStatus = z.infer<typeof ZTaskStatus>;

export const ZTask = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  contact_id: z.number().int().nullable(),
  contact: z.object({ id: z.number().int(), name: z.string(), phone: z.string() }).nullable(),
  user_id: z.number().int(),
  assignee: z.object({ id: z.number().int(), name: z.string() }),
  due_date: z.string().nullable(),
  status: ZTaskStatus,
  created_at: z.string(),
});
export type TTask = z.infer<typeof ZTask>;

/** A calendar day, YYYY-MM-DD. */
const zDay = () => z.iso.date();

export const ZTaskRequest = z.object({
  title: z.string().trim().min(1).max(191),
  description: z.string().trim().max(5000).default(''),
  contact_id: z.number().int().positive().nullable().optional(),
  /** The assignee; the caller when not given. */
  user_id: z.number().int().positive().optional(),
  due_date: zDay().nullable().optional(),
  status: ZTaskStatus.default('open'),
});
export type TTaskRequest = z.infer<typeof ZTaskRequest>;

export const ZTaskListQuery = ZListQuery.extend({
  search: z.string().trim().max(200).optional(),
  status: ZTaskStatus.optional(),
});
export type TTaskListQuery = z.infer<typeof ZTaskListQuery>;

export const ZTaskList = listOf(ZTask);
export const ZTaskAll = allItemsOf(ZTask);
export const ZTaskResponse = itemAnswerOf(ZTask);

/** The realtime event sent to the assignee's user channel when a task is assigned to them. */
export const ZNewTaskEvent = z.object({ number_of_tasks: z.number().int() });
export type TNewTaskEvent = z.infer<typeof ZNewTaskEvent>;
