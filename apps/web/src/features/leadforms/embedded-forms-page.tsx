import { Anchor, Button, Modal, Stack, Switch, Text } from '@mantine/core';
import type { TEmbeddedForm } from '@stn/contracts/leadforms';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useInstallOptions } from '../../lib/pickers.ts';
import { keys } from '../../lib/query-keys.ts';
import { embeddedFormsPath, useDeleteEmbeddedForm, useToggleEmbeddedForm } from './api/leadforms.ts';
import { EmbedSnippet } from './embed-snippet.tsx';

/**
 * business.installs.forms (installs/:install/forms): the install's embedded forms, each a lead form placed
 * inline on a page of the business's site: its lead form, an active switch, the submissions it brought,
 * its embed code, edit (the wizard) and delete.
 */
export default function EmbeddedFormsPage() {
  const { t } = useTranslation();
  const installId = Number(useParams().install ?? 0);
  const installs = useInstallOptions();
  const install = installs.data?.find((i) => i.id === installId);
  const toggle = useToggleEmbeddedForm(installId);
  const remove = useDeleteEmbeddedForm(installId);
  const [code, setCode] = useState<TEmbeddedForm | null>(null);

  const columns: Column<TEmbeddedForm>[] = [
    {
      key: 'name',
      title: t('business.leadForms.embedded.name'),
      render: (f) => (
        <Text size="sm" fw={500} data-testid={`embedded-name-${f.id}`}>
          {f.name}
        </Text>
      ),
    },
    {
      key: 'form',
      title: t('business.leadForms.embedded.lead_form'),
      render: (f) => (
        <Anchor component={Link} to={pathOf('business.leadForms.edit', { id: f.lead_form_id })} size="sm">
          {f.lead_form_name}
        </Anchor>
      ),
    },
    {
      key: 'active',
      title: t('business.leadForms.active'),
      render: (f) => (
        <Switch
          checked={f.active}
          onChange={() => toggle.mutate(f.id)}
          aria-label={t('business.leadForms.active_of', { name: f.name })}
          data-testid={`embedded-active-${f.id}`}
        />
      ),
    },
    {
      key: 'submissions',
      title: t('business.leadForms.submissions'),
      render: (f) => (
        <Text size="sm" data-testid={`embedded-submissions-${f.id}`}>
          {f.submissions}
        </Text>
      ),
    },
  ];

  const create = pathOf('business.installs.forms.create', { install: installId });
  return (
    <Stack>
      <div>
        <Anchor component={Link} to={pathOf('business.installs.edit', { id: installId })} size="sm">
          {t('business.leadForms.embedded.back_install', { name: install?.name ?? '' })}
        </Anchor>
        <ListHeader
          title={t('business.leadForms.embedded.title', { name: install?.name ?? '' })}
          add={{ label: t('business.leadForms.embedded.add'), to: create, testId: 'embedded-add' }}
        />
      </div>
      <Text size="sm" c="dimmed">
        {t('business.leadForms.embedded.hint')}
      </Text>
      <DataTable<TEmbeddedForm>
        path={embeddedFormsPath(installId)}
        queryKey={keys.embeddedForms.list(installId)}
        columns={columns}
        minWidth={720}
        testId="embedded-table"
        empty={
          <Stack align="center" gap="xs" py="md" data-testid="embedded-empty">
            <Text c="dimmed">{t('business.leadForms.embedded.empty')}</Text>
            <Button component={Link} to={create} data-testid="embedded-empty-add">
              {t('business.leadForms.embedded.add')}
            </Button>
          </Stack>
        }
        actions={(f) => (
          <RowButtons
            actions={[
              {
                label: t('business.leadForms.embedded.code'),
                onClick: () => setCode(f),
                testId: `embedded-code-${f.id}`,
              },
              {
                label: t('business.common.edit'),
                to: pathOf('business.installs.forms.edit', { install: installId, id: f.id }),
                testId: `embedded-edit-${f.id}`,
              },
              {
                label: t('business.common.delete'),
                color: 'red',
                testId: `embedded-delete-${f.id}`,
                onClick: () =>
                  askDelete(
                    [
                      'business.leadForms.embedded.delete_title',
                      'business.leadForms.embedded.delete_confirm',
                      'business.common.delete',
                    ],
                    { name: f.name },
                    () => remove.mutate(f.id),
                    'embedded-delete-ok',
                  ),
              },
            ]}
          />
        )}
      />
      <Modal
        opened={code !== null}
        onClose={() => setCode(null)}
        title={t('business.leadForms.embedded.code_title', { name: code?.name ?? '' })}
        size="lg"
      >
        {code && <EmbedSnippet code={code.embed_code} />}
      </Modal>
    </Stack>
  );
}
