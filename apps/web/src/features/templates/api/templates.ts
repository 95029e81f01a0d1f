import type { TTemplate, TTemplateRequest } from '@stn/contracts/templates';
import { keys } from '../../../lib/query-keys.ts';
import { resourceCalls } from '../../../lib/resource-api.ts';

// The templates calls (spec 001 "templates"): list, one, add, edit, toggle-active, delete.

export const TEMPLATES_PATH = '/v1/templates';

const templates = resourceCalls<TTemplate, TTemplateRequest>({ path: TEMPLATES_PATH, keys: keys.templates });

export const templateQuery = templates.oneQuery;
export const useTemplate = templates.useOne;
export const useSaveTemplate = templates.useSave;
export const useToggleTemplate = templates.useToggle;
export const useDeleteTemplate = templates.useDelete;
