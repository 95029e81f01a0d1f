import { Alert, Button, Divider, Grid, Group, List, Stack, Text, Title } from '@mantine/core';
import type { TInstall } from '@stn/contracts/installs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Wizard, type WizardStep } from '../../components/wizard/wizard.tsx';
import { clampIndex } from '../../components/wizard/wizard-model.ts';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { loadProfile } from '../../lib/session.ts';
import { createInstall, toggleInstallActive, updateInstall } from './api/installs.ts';
import { EmbedCode } from './embed-code.tsx';
import { checkSection, showSaveError, useInstallForm } from './install-form.ts';
import {
  CallsSection,
  HoursSection,
  LeadFormSection,
  LookSection,
  NumberSection,
  WebsiteSection,
  WidgetTypeSection,
} from './install-sections.tsx';
import { type InstallSection, sectionSettings, takesCalls } from './install-values.ts';
import { WidgetPreview } from './widget-preview.tsx';

// The install wizard (spec 000 §2 "installs add; multi-step install wizard", §4 Wizard): 1 Website,
// 2 Widget type, 3 Call settings, 3a Phone number (a child of 3), 4 Hours, 5 Look, 6 Review and Confirm.
// Buying a number needs the install, so the install is created (inactive) when leaving step 2 and every
// later Next saves its step with settings.wizard_step, the step to reopen at: a reload, or the profile's
// open_install_wizard = <id>, brings the person back to the edit screen, which resumes here. Confirm saves
// everything, clears wizard_step and switches the install on; then its embed code is shown.

type StepKey = 'website' | 'type' | 'calls' | 'number' | 'hours' | 'look' | 'review';
const ORDER: { key: StepKey; parent?: StepKey; section?: InstallSection }[] = [
  { key: 'website', section: 'website' },
  { key: 'type', section: 'type' },
  { key: 'calls', section: 'calls' },
  { key: 'number', parent: 'calls' },
  { key: 'hours', section: 'hours' },
  { key: 'look', section: 'look' },
  { key: 'review' },
];
const TYPE_STEP = ORDER.findIndex((s) => s.key === 'type');

export function InstallWizard({ install }: { install: TInstall | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useInstallForm(install);
  const [saved, setSaved] = useState<TInstall | null>(install);
  const [index, setIndex] = useState(() => clampIndex(ORDER, install?.settings.wizard_step ?? 0));
  const [done, setDone] = useState<TInstall | null>(null);
  // The widget type step also says whether the widget opens a lead form (issue 21), for those who make them.
  const canLead = userCan(useAuth().user, 'leadForms.use');
  const leadSettings = () => (canLead ? sectionSettings('lead', form.values.settings) : {});

  /** Saves the step just left; the install is created when leaving the widget type step. */
  const beforeNext = async (at: number): Promise<boolean> => {
    const section = ORDER[at]?.section;
    const v = form.values;
    const next = at + 1;
    try {
      if (!saved) {
        if (at < TYPE_STEP) return true;
        const created = await createInstall({
          name: v.name,
          website: v.website,
          settings: { ...sectionSettings('type', v.settings), ...leadSettings(), wizard_step: next },
        });
        // Off until Confirm: a half-set-up widget takes no callbacks.
        const off = created.active ? await toggleInstallActive(created.id, false, { silent: true }) : null;
        setSaved(off && 'data' in off ? off.data : { ...created, active: false });
        return true;
      }
      const updated = await updateInstall(
        saved.id,
        {
          name: v.name,
          website: v.website,
          settings: {
            ...(section ? sectionSettings(section, v.settings) : {}),
            ...(section === 'type' ? leadSettings() : {}),
            wizard_step: next,
          },
        },
        { silent: true },
      );
      setSaved(updated);
      return true;
    } catch (err) {
      showSaveError(form, err);
      return false;
    }
  };

  const confirm = async () => {
    // A problem in an earlier step (possible after a resume): go back to that step, messages shown.
    const bad = ORDER.findIndex(
      (step) =>
        step.section &&
        !checkSection(form, step.section === 'type' && canLead ? ['type', 'lead'] : step.section),
    );
    if (bad >= 0) {
      setIndex(bad);
      return;
    }
    const v = form.values;
    try {
      let current = saved;
      const body = { name: v.name, website: v.website, settings: { ...v.settings, wizard_step: null } };
      current = current ? await updateInstall(current.id, body, { silent: true }) : await createInstall(body);
      await toggleInstallActive(current.id, true, { silent: true });
      setDone({ ...current, active: true });
      // The profile's open_install_wizard changes once an install is complete: let the guard know.
      await loadProfile().catch(() => undefined);
    } catch (err) {
      showSaveError(form, err);
    }
  };

  if (done) {
    return (
      <Stack maw={760} data-testid="install-wizard-done">
        <Title order={2} data-testid="page-title">
          {t('business.installs.wizard.done_title')}
        </Title>
        <Alert color="green">{t('business.installs.wizard.done_text', { name: done.name })}</Alert>
        <EmbedCode installId={done.id} />
        <Group justify="flex-end">
          <Button onClick={() => navigate(pathOf('business.installs'))} data-testid="install-wizard-finish">
            {t('business.installs.wizard.to_list')}
          </Button>
        </Group>
      </Stack>
    );
  }

  const s = form.values.settings;
  const section = (key: InstallSection) => () => checkSection(form, key);
  const steps: WizardStep[] = [
    {
      key: 'website',
      label: t('business.installs.wizard.website'),
      validate: section('website'),
      content: <WebsiteSection form={form} />,
    },
    {
      key: 'type',
      label: t('business.installs.wizard.type'),
      validate: () => checkSection(form, canLead ? ['type', 'lead'] : 'type'),
      content: (
        <>
          <WidgetTypeSection form={form} />
          {canLead && (
            <>
              <Divider label={t('business.installs.sections.lead')} labelPosition="left" />
              <LeadFormSection form={form} />
            </>
          )}
        </>
      ),
    },
    {
      key: 'calls',
      label: t('business.installs.wizard.calls'),
      validate: section('calls'),
      content: <CallsSection form={form} />,
    },
    {
      key: 'number',
      parent: 'calls',
      label: t('business.installs.wizard.number'),
      description: t('business.installs.wizard.number_hint'),
      content: (
        <NumberSection
          installId={saved?.id ?? null}
          number={saved?.number ?? null}
          onBought={(number) => setSaved((cur) => (cur ? { ...cur, number } : cur))}
        />
      ),
    },
    {
      key: 'hours',
      label: t('business.installs.wizard.hours'),
      validate: section('hours'),
      content: <HoursSection form={form} />,
    },
    {
      key: 'look',
      label: t('business.installs.wizard.look'),
      validate: section('look'),
      content: (
        <Grid gutter="lg" align="flex-start">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <LookSection form={form} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <WidgetPreview installId={saved?.id ?? null} settings={form.values.settings} />
          </Grid.Col>
        </Grid>
      ),
    },
    {
      key: 'review',
      label: t('business.installs.wizard.review'),
      description: t('business.installs.wizard.review_hint'),
      content: (
        <List spacing="xs" data-testid="install-review">
          <List.Item>
            {t('business.installs.fields.name')}: <b>{form.values.name}</b>
          </List.Item>
          <List.Item>
            {t('business.installs.fields.website')}: <b>{form.values.website}</b>
          </List.Item>
          <List.Item>
            {t('business.installs.fields.widget_type')}:{' '}
            <b>{t(`business.installs.widget_types.${s.widget_type}`)}</b>
          </List.Item>
          {takesCalls(s) && (
            <List.Item>
              {t('business.installs.fields.phone_agents')}:{' '}
              <b>{s.phoneAgents.map((a) => `${a.name} (${a.phone})`).join(', ')}</b>
            </List.Item>
          )}
          <List.Item>
            {t('business.installs.fields.number')}: <b>{saved?.number ?? '—'}</b>
          </List.Item>
          <List.Item>
            {t('business.installs.fields.timezone')}: <b>{s.timezone}</b>
          </List.Item>
          <List.Item>
            {t('business.installs.fields.primary_color')}:{' '}
            <Text span fw={700} c={s.colors.primary}>
              {s.colors.primary}
            </Text>
          </List.Item>
        </List>
      ),
    },
  ];

  return (
    <Stack maw={900}>
      <Title order={2} data-testid="page-title">
        {saved
          ? t('business.installs.wizard.title_continue', { name: saved.name })
          : t('business.installs.wizard.title')}
      </Title>
      <Wizard
        steps={steps}
        active={index}
        onChange={(i) => {
          form.clearErrors();
          setIndex(i);
        }}
        beforeNext={beforeNext}
        onConfirm={confirm}
        confirmLabel={t('business.installs.wizard.confirm')}
        testId="install-wizard"
      />
    </Stack>
  );
}
