import {
  Accordion,
  Anchor,
  Avatar,
  Box,
  Button,
  FileButton,
  Grid,
  Group,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { TInstall } from '@stn/contracts/installs';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { readDataUrl } from '../../lib/files.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import {
  type TInstallImage,
  updateInstall,
  updateInstallSettings,
  useInstall,
  useInstallImage,
} from './api/installs.ts';
import { EmbedCode } from './embed-code.tsx';
import { checkSection, showSaveError, useInstallForm } from './install-form.ts';
import {
  CallsSection,
  FieldsSection,
  HoursSection,
  LeadFormSection,
  LookSection,
  NotifySection,
  NumberSection,
  ResponseSection,
  TextsSection,
  WebsiteSection,
  WidgetTypeSection,
} from './install-sections.tsx';
import { type InstallSection, sectionSettings } from './install-values.ts';
import { InstallWizard } from './install-wizard.tsx';
import { WidgetPreview } from './widget-preview.tsx';

/**
 * 'installs/:id' (business.installs.edit): the install's sections as an accordion, each with its own Save
 * (PUT /v1/installs/{id} for the name and website, PUT /v1/installs/{id}/setting for the rest), the widget
 * icon and logo, the number and the embed code; beside them a live preview of the widget with the form's
 * current values (ADR 039). An install whose wizard was left unfinished
 * (settings.wizard_step set) opens the wizard again at that step.
 */
export default function InstallEditPage() {
  const id = Number(useParams().id ?? 0);
  return <InstallEditScreen key={id} id={id} />;
}

function InstallEditScreen({ id }: { id: number }) {
  const install = useInstall(id);
  // Decided on the first answer: the wizard's own Confirm clears wizard_step, and its closing screen (the
  // embed code) must not be swapped for the editor by the refetch that follows.
  const wizard = useRef<boolean | null>(null);
  if (install.isError) return <LoadFailed message={install.error.message} testId="install-load-error" />;
  if (!install.data) return <Loading />;
  wizard.current ??= install.data.settings.wizard_step !== null;
  if (wizard.current) return <InstallWizard key={id} install={install.data} />;
  return <InstallEditor key={install.data.id} install={install.data} />;
}

function InstallEditor({ install }: { install: TInstall }) {
  const { t } = useTranslation();
  const form = useInstallForm(install);
  const [saving, setSaving] = useState<InstallSection | null>(null);
  const canLead = userCan(useAuth().user, 'leadForms.use');

  const save = async (section: InstallSection) => {
    if (!checkSection(form, section)) return;
    setSaving(section);
    try {
      const v = form.values;
      if (section === 'website') await updateInstall(install.id, { name: v.name, website: v.website });
      else await updateInstallSettings(install.id, sectionSettings(section, v.settings));
      form.resetDirty();
    } catch (err) {
      showSaveError(form, err);
    } finally {
      setSaving(null);
    }
  };

  const saveBar = (section: InstallSection) => (
    <Group justify="flex-end">
      <Button
        onClick={() => void save(section)}
        loading={saving === section}
        data-testid={`install-save-${section}`}
      >
        {t('common.save')}
      </Button>
    </Group>
  );

  const item = (value: string, title: string, children: ReactNode) => (
    <Accordion.Item value={value} data-testid={`install-section-${value}`}>
      <Accordion.Control data-testid={`install-section-${value}-toggle`}>{title}</Accordion.Control>
      <Accordion.Panel>
        <Stack>{children}</Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );

  return (
    <Stack>
      <div>
        <Anchor component={Link} to={pathOf('business.installs')} size="sm">
          {t('business.installs.back')}
        </Anchor>
        <Group justify="space-between" align="flex-end">
          <Title order={2} data-testid="page-title">
            {t('business.installs.edit_title', { name: install.name })}
          </Title>
          {canLead && (
            <Button
              variant="light"
              component={Link}
              to={pathOf('business.installs.forms', { install: install.id })}
              data-testid="install-forms-link"
            >
              {t('business.installs.lead.forms')}
            </Button>
          )}
        </Group>
      </div>
      <Grid gutter="lg" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Accordion multiple defaultValue={['website']} variant="separated">
            {item(
              'website',
              t('business.installs.wizard.website'),
              <>
                <WebsiteSection form={form} />
                {saveBar('website')}
              </>,
            )}
            {item(
              'type',
              t('business.installs.wizard.type'),
              <>
                <WidgetTypeSection form={form} />
                {saveBar('type')}
              </>,
            )}
            {item(
              'calls',
              t('business.installs.wizard.calls'),
              <>
                <CallsSection form={form} />
                {saveBar('calls')}
              </>,
            )}
            {item(
              'number',
              t('business.installs.wizard.number'),
              <NumberSection installId={install.id} number={install.number} />,
            )}
            {item(
              'hours',
              t('business.installs.wizard.hours'),
              <>
                <HoursSection form={form} />
                {saveBar('hours')}
              </>,
            )}
            {item(
              'look',
              t('business.installs.wizard.look'),
              <>
                <LookSection form={form} />
                {saveBar('look')}
              </>,
            )}
            {item(
              'fields',
              t('business.installs.sections.fields'),
              <>
                <FieldsSection form={form} />
                {saveBar('fields')}
              </>,
            )}
            {item(
              'response',
              t('business.installs.sections.response'),
              <>
                <ResponseSection form={form} />
                {saveBar('response')}
              </>,
            )}
            {item(
              'texts',
              t('business.installs.sections.texts'),
              <>
                <TextsSection form={form} />
                {saveBar('texts')}
              </>,
            )}
            {canLead &&
              item(
                'lead',
                t('business.installs.sections.lead'),
                <>
                  <LeadFormSection form={form} />
                  {saveBar('lead')}
                </>,
              )}
            {item(
              'notify',
              t('business.installs.notify.section'),
              <>
                <NotifySection form={form} />
                {saveBar('notify')}
              </>,
            )}
            {item(
              'images',
              t('business.installs.images'),
              <>
                <InstallImage install={install} type="widgetIcon" />
                <InstallImage install={install} type="logo" />
              </>,
            )}
            {item('embed', t('business.installs.embed_title'), <EmbedCode installId={install.id} />)}
          </Accordion>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Box pos="sticky" top={16}>
            <WidgetPreview
              installId={install.id}
              settings={form.values.settings}
              logo={install.logo}
              widgetIcon={install.widget_icon}
            />
          </Box>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/svg+xml';

/** The widget icon or the logo: the current picture, Upload (a data URL) and Remove. */
function InstallImage({ install, type }: { install: TInstall; type: TInstallImage }) {
  const { t } = useTranslation();
  const image = useInstallImage(install.id);
  const current = type === 'widgetIcon' ? install.widget_icon : install.logo;
  const pick = async (file: File | null) => {
    if (!file) return;
    image.mutate({ type, data: await readDataUrl(file) });
  };
  return (
    <Group justify="space-between" data-testid={`install-image-${type}`}>
      <Group>
        <Avatar src={current ?? undefined} radius="sm" size="lg">
          —
        </Avatar>
        <div>
          <Text fw={500}>{t(`business.installs.image.${type}`)}</Text>
          <Text size="xs" c="dimmed">
            {t('business.installs.image.hint')}
          </Text>
        </div>
      </Group>
      <Group>
        <FileButton onChange={(f) => void pick(f)} accept={IMAGE_ACCEPT}>
          {(props) => (
            <Button
              {...props}
              variant="light"
              loading={image.isPending}
              data-testid={`install-image-${type}-upload`}
            >
              {t('business.installs.image.upload')}
            </Button>
          )}
        </FileButton>
        {current && (
          <Button
            variant="subtle"
            color="red"
            onClick={() => image.mutate({ type, data: null })}
            data-testid={`install-image-${type}-remove`}
          >
            {t('business.installs.image.remove')}
          </Button>
        )}
      </Group>
    </Group>
  );
}
