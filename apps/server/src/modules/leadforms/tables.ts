import type {
  TEmbeddedFormSettings,
  TLeadLanguage,
  TLeadStep,
  TLeadStyling,
  TLeadTexts,
} from '@stn/contracts/leadforms';
import { boolean, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps, tz } from '../../platform/db/columns.ts';
import { tenantKeys } from '../businesses/tables.ts';
import { contacts } from '../contacts/tables.ts';
import { installs } from '../installs/tables.ts';

// The leadforms module's tables (issue 21, ADR 074): a business's lead forms (steps of questions with a text
// per language), the embedded forms that place one on a page of an install's site, and the submissions.

export const leadForms = pgTable(
  'lead_forms',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    languages: jsonb('languages').$type<TLeadLanguage[]>().notNull().default(['en']),
    steps: jsonb('steps').$type<TLeadStep[]>().notNull().default([]),
    styling: jsonb('styling').$type<TLeadStyling>().notNull(),
    texts: jsonb('texts').$type<TLeadTexts>().notNull().default({}),
    /** Tags every submission gives the contact. */
    tag_ids: jsonb('tag_ids').$type<number[]>().notNull().default([]),
    deleted_at: tz('deleted_at'),
    ...timestamps,
  },
  (t) => [index('lead_forms_business_idx').on(t.business_id, t.created_at)],
);

/** A lead form placed inline on a page of an install's site (`<div data-stn-form="{id}">`). */
export const embeddedForms = pgTable(
  'embedded_forms',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    install_id: integer('install_id')
      .notNull()
      .references(() => installs.id),
    lead_form_id: integer('lead_form_id')
      .notNull()
      .references(() => leadForms.id),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    settings: jsonb('settings').$type<TEmbeddedFormSettings>().notNull(),
    deleted_at: tz('deleted_at'),
    ...timestamps,
  },
  (t) => [
    index('embedded_forms_install_idx').on(t.install_id),
    index('embedded_forms_lead_form_idx').on(t.lead_form_id),
  ],
);

/** A visitor's answers to a lead form, as they were shown (labels and answers in the visitor's language). */
export type StoredAnswer = { question_id: string; label: string; type: string; value: string };
/** A consent question as it was shown, and whether it was given (when, from which address). */
export type StoredConsent = {
  question_id: string;
  text: string;
  given: boolean;
  at: string;
  ip: string | null;
};

export const leadSubmissions = pgTable(
  'lead_submissions',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    lead_form_id: integer('lead_form_id')
      .notNull()
      .references(() => leadForms.id),
    embedded_form_id: integer('embedded_form_id').references(() => embeddedForms.id),
    install_id: integer('install_id').references(() => installs.id, { onDelete: 'set null' }),
    contact_id: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    language: text('language').$type<TLeadLanguage>().notNull(),
    source: text('source').$type<'widget' | 'embed'>().notNull(),
    answers: jsonb('answers').$type<StoredAnswer[]>().notNull().default([]),
    consents: jsonb('consents').$type<StoredConsent[]>().notNull().default([]),
    /** The tags the submission gave the contact. */
    tag_ids: jsonb('tag_ids').$type<number[]>().notNull().default([]),
    page_url: text('page_url'),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('lead_submissions_business_idx').on(t.business_id, t.created_at),
    index('lead_submissions_form_idx').on(t.lead_form_id),
    // What came lately: the analytics sweep marks those days to rebuild (ADR 081).
    index('lead_submissions_created_idx').on(t.created_at),
    index('lead_submissions_contact_idx').on(t.contact_id),
  ],
);
