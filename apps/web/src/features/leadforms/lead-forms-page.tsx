import { Anchor, Badge, Button, Group, Stack, Switch, Text } from '@mantine/core';
import type { TLeadForm } from '@stn/contracts/leadforms';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { EditDeleteButtons } from '../../components/list/row-actions.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { LEAD_FORMS_PATH, useDeleteLeadForm, useToggleLeadForm } from './api/leadforms.ts';
import { FormSubmissionsModal } from './form-submissions-modal.tsx';

/**
 * business.leadForms: the business's lead forms (GET /v1/allLeadForms, searched by name): the active switch,
 * the languages, the submissions so far (a click lists them), the installs and embedded forms using each, edit and delete (after
 * a confirm); with none yet, a call to create the first.
 */
export default function LeadFormsPage() {
  const { t } = useTranslation();
  const toggle = useToggleLeadForm();
  const remove = useDeleteLeadForm();
  const [shown, setShown] = useState<TLeadForm | null>(null);

  const columns: Column<TLeadForm>[] = [
    {
      key: 'name',
      title: t('business.leadForms.name'),
      render: (f) => (
        <Anchor
          component={Link}
          to={pathOf('business.leadForms.edit', { id: f.id })}
          size="sm"
          fw={500}
          data-testid={`leadform-name-${f.id}`}
        >
          {f.name}
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
          data-testid={`leadform-active-${f.id}`}
        />
      ),
    },
    {
      key: 'languages',
      title: t('business.leadForms.languages'),
      render: (f) => (
        <Group gap={4} data-testid={`leadform-languages-${f.id}`}>
          {f.languages.map((l) => (
            <Badge key={l} variant="light" size="sm">
              {l.toUpperCase()}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'submissions',
      title: t('business.leadForms.submissions'),
      render: (f) =>
        f.submissions > 0 ? (
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => setShown(f)}
            aria-label={t('business.leadForms.list_submissions.submissions_open', {
              count: f.submissions,
              name: f.name,
            })}
            data-testid={`leadform-submissions-${f.id}`}
          >
            {f.submissions}
          </Anchor>
        ) : (
          <Text size="sm" data-testid={`leadform-submissions-${f.id}`}>
            0
          </Text>
        ),
    },
    {
      key: 'installs',
      title: t('business.leadForms.installs'),
      render: (f) => (
        <Text size="sm" data-testid={`leadform-installs-${f.id}`}>
          {f.installs.length ? f.installs.map((i) => i.name).join(', ') : '—'}
        </Text>
      ),
    },
  ];

  return (
    <Stack>
      {shown && <FormSubmissionsModal form={shown} onClose={() => setShown(null)} />}
      <ListHeader
        title={t('business.leadForms.title')}
        add={{
          label: t('business.leadForms.add'),
          to: pathOf('business.leadForms.create'),
          testId: 'leadforms-add',
        }}
      />
      <DataTable<TLeadForm>
        path={LEAD_FORMS_PATH}
        queryKey={keys.leadForms.lists()}
        columns={columns}
        minWidth={760}
        perPage={10}
        testId="leadforms-table"
        empty={(keyword) => (
          <Stack align="center" gap="xs" py="md" data-testid="leadforms-empty">
            <Text c="dimmed" ta="center">
              {keyword ? t('business.leadForms.no_match', { keyword }) : t('business.leadForms.empty')}
            </Text>
            <Button
              component={Link}
              to={pathOf('business.leadForms.create')}
              data-testid="leadforms-empty-add"
            >
              {t('business.leadForms.create_first')}
            </Button>
          </Stack>
        )}
        actions={(f) => (
          <EditDeleteButtons
            name="leadform"
            id={f.id}
            edit={pathOf('business.leadForms.edit', { id: f.id })}
            onDelete={() =>
              askDelete(
                [
                  'business.leadForms.delete_title',
                  'business.leadForms.delete_confirm',
                  'business.common.delete',
                ],
                { name: f.name, count: f.installs.length },
                () => remove.mutate(f.id),
                'leadform-delete-ok',
              )
            }
          />
        )}
      />
    </Stack>
  );
}
