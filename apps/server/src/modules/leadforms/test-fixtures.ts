// Fixtures of the lead forms tests (issue 21): a two-step form in English and Spanish with a choice whose
// options give tags, a custom field, a consent with its tag; tags and custom fields made in one statement.
// Only the tests import this file.
import type { TestApp } from '../../../test/helpers.ts';

export async function addTag(t: TestApp, businessId: number, name: string): Promise<number> {
  const { rows } = await t.pool.query('insert into tags (business_id, name) values ($1, $2) returning id', [
    businessId,
    name,
  ]);
  return rows[0].id as number;
}

export async function addField(t: TestApp, businessId: number, key: string): Promise<void> {
  await t.pool.query('insert into contact_fields (business_id, key, label) values ($1, $2, $3)', [
    businessId,
    key,
    key,
  ]);
}

export type FormTags = { lead: number; cleaning: number; whitening: number; consent: number };

/** "New patient enquiry": name, phone, e-mail; then a multiple choice, the insurer (a custom field), a consent. */
export function enquiry(tags: FormTags, over: Record<string, unknown> = {}) {
  return {
    name: 'New patient enquiry',
    languages: ['en', 'es'],
    tag_ids: [tags.lead],
    texts: { en: { thanks: 'Thanks, we will call you!' }, es: { thanks: '¡Gracias, te llamaremos!' } },
    steps: [
      {
        id: 'about',
        title: { en: 'About you', es: 'Sobre ti' },
        questions: [
          { id: 'name', type: 'short_text', label: { en: 'Your name', es: 'Tu nombre' }, map_to: 'name' },
          {
            id: 'phone',
            type: 'phone',
            label: { en: 'Phone', es: 'Teléfono' },
            required: true,
            map_to: 'phone',
          },
          { id: 'email', type: 'email', label: { en: 'E-mail', es: 'Correo' }, map_to: 'email' },
        ],
      },
      {
        id: 'visit',
        title: { en: 'Your visit', es: 'Tu visita' },
        questions: [
          {
            id: 'service',
            type: 'choice',
            label: { en: 'What do you need?', es: '¿Qué necesitas?' },
            is_allow_multi_select: true,
            options: [
              { id: 'cleaning', label: { en: 'Cleaning', es: 'Limpieza' }, tag_id: tags.cleaning },
              { id: 'whitening', label: { en: 'Whitening', es: 'Blanqueamiento' }, tag_id: tags.whitening },
            ],
          },
          {
            id: 'insurer',
            type: 'short_text',
            label: { en: 'Insurer', es: 'Aseguradora' },
            map_to: 'field:insurer',
          },
          {
            id: 'ok',
            type: 'consent',
            label: { en: 'You may contact me', es: 'Pueden contactarme' },
            required: true,
            tag_id: tags.consent,
          },
        ],
      },
    ],
    ...over,
  };
}
