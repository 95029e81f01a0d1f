// The demo business's lead form (issue 21): "New patient enquiry", two steps in English and Spanish (name,
// phone, e-mail; then the treatment wanted, whose options give tags, and a consent with its own tag), shown
// by the demo install's widget (the LeadLabel trigger) and placed on its contact page by an embedded form.
// Made through the leadforms and installs services in the business's own context, so a seed that drifts from
// the contracts fails at start, not on a screen.
import { type TLeadFormInput, ZLeadFormRequest } from '@stn/contracts/leadforms';
import { tagIdsByName } from './modules/contacts/service.ts';
import { updateInstall } from './modules/installs/service.ts';
import { createEmbeddedForm, createLeadForm } from './modules/leadforms/service.ts';
import type { Ctx } from './platform/tenancy/context.ts';

export const DEMO_LEAD_FORM_NAME = 'New patient enquiry';

export function demoLeadForm(tags: { patient: number; cleaning: number; whitening: number; offers: number }) {
  return {
    name: DEMO_LEAD_FORM_NAME,
    languages: ['en', 'es'],
    tag_ids: [tags.patient],
    texts: {
      en: { title: 'Book your first visit', thanks: 'Thanks! Our front desk will call you today.' },
      es: { title: 'Reserva tu primera visita', thanks: '¡Gracias! Te llamaremos hoy.' },
    },
    steps: [
      {
        id: 'about',
        title: { en: 'About you', es: 'Sobre ti' },
        questions: [
          { id: 'name', type: 'short_text', label: { en: 'Your name', es: 'Tu nombre' }, map_to: 'name' },
          {
            id: 'phone',
            type: 'phone',
            label: { en: 'Phone number', es: 'Número de teléfono' },
            required: true,
            map_to: 'phone',
          },
          { id: 'email', type: 'email', label: { en: 'E-mail', es: 'Correo electrónico' }, map_to: 'email' },
        ],
      },
      {
        id: 'visit',
        title: { en: 'Your visit', es: 'Tu visita' },
        questions: [
          {
            id: 'treatment',
            type: 'choice',
            label: { en: 'What can we help with?', es: '¿En qué podemos ayudarte?' },
            required: true,
            options: [
              {
                id: 'cleaning',
                label: { en: 'Check-up and cleaning', es: 'Revisión y limpieza' },
                tag_id: tags.cleaning,
              },
              { id: 'whitening', label: { en: 'Whitening', es: 'Blanqueamiento' }, tag_id: tags.whitening },
              { id: 'other', label: { en: 'Something else', es: 'Otra cosa' } },
            ],
          },
          {
            id: 'notes',
            type: 'long_text',
            label: { en: 'Anything we should know?', es: '¿Algo que debamos saber?' },
          },
          {
            id: 'offers',
            type: 'consent',
            label: {
              en: 'Text me offers from Bright Dental (reply STOP to stop)',
              es: 'Envíenme ofertas de Bright Dental por SMS (responde STOP para dejar de recibirlas)',
            },
            tag_id: tags.offers,
          },
        ],
      },
    ],
  } satisfies TLeadFormInput;
}

export async function seedDemoLeadForms(ctx: Ctx, input: { installId: number }): Promise<void> {
  // Made when missing, found by name when the demo contacts already use them ('New patient').
  const names = ['New patient', 'Cleaning', 'Whitening', 'Offers by text'];
  const ids = await tagIdsByName(ctx, names);
  const [patient, cleaning, whitening, offers] = names.map((n) => ids.get(n.toLowerCase()));
  if (!patient || !cleaning || !whitening || !offers)
    throw new Error('demo lead form: the tags were not written');
  const form = await createLeadForm(
    ctx,
    ZLeadFormRequest.parse(demoLeadForm({ patient, cleaning, whitening, offers })),
  );
  await updateInstall(ctx, {
    id: input.installId,
    settings: { is_enable_lead_form: true, lead_form_id: form.id },
  });
  await createEmbeddedForm(ctx, {
    installId: input.installId,
    name: 'Contact page',
    lead_form_id: form.id,
    active: true,
    settings: { language: 'auto', show_title: true, use_install_style: true, redirect_url: '' },
  });
}
