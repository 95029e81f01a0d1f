import {
  Badge,
  Button,
  Card,
  CopyButton,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TAutomation } from '@stn/contracts/automations';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RowMenu } from '../../components/list/row-actions.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { toastError } from '../../lib/toast.ts';
import {
  AUTOMATIONS_PATH,
  useAutomationTemplates,
  useCloneAutomation,
  useDeleteAutomation,
  useDuplicateAutomation,
  useToggleAutomation,
} from './api/automations.ts';

/** The share link of an automation: opening it in another business imports a copy there. */
export function shareLink(token: string): string {
  return `${window.location.origin}${pathOf('business.automation.share', { token })}`;
}

/**
 * business.automation: the business's automations with their trigger, an active switch (a refused
 * activation lists its problems), runs in progress and all-time, and edit, runs, duplicate, share and
 * delete; below, the templates gallery ("Use" imports a copy and opens it in the editor).
 */
export default function AutomationsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const toggle = useToggleAutomation();
  const remove = useDeleteAutomation();
  const duplicate = useDuplicateAutomation();
  const [sharing, setSharing] = useState<TAutomation | null>(null);

  const onToggle = (a: TAutomation, active: boolean) =>
    toggle.mutate(
      { id: a.id, active },
      {
        onError: (err) => {
          if (!(err instanceof ApiError) || err.code !== 'VALIDATION') return toastError(err.message);
          // Every problem the server named; a refusal of the whole (the plan's limit) is its message.
          const named = [...new Set(Object.values(err.body?.errors ?? {}).flat())];
          const messages = named.length ? named : [err.message];
          modals.open({
            title: t('business.automations.cannot_activate', { name: a.name }),
            children: (
              <Stack gap="xs" data-testid="toggle-problems">
                {messages.map((m) => (
                  <Text key={m} size="sm">
                    {m}
                  </Text>
                ))}
                <Group justify="flex-end">
                  <Button
                    onClick={() => {
                      modals.closeAll();
                      navigate(pathOf('business.automation.edit', { id: a.id }));
                    }}
                    data-testid="toggle-problems-edit"
                  >
                    {t('business.automations.open_editor')}
                  </Button>
                </Group>
              </Stack>
            ),
          });
        },
      },
    );

  const columns: Column<TAutomation>[] = [
    {
      key: 'name',
      title: t('business.automations.name'),
      render: (a) => (
        <Text size="sm" fw={500} data-testid={`automation-name-${a.id}`}>
          {a.name}
        </Text>
      ),
    },
    {
      key: 'trigger',
      title: t('business.automations.trigger'),
      render: (a) => (
        <Badge variant="light" data-testid={`automation-trigger-${a.id}`}>
          {t(`business.automations.triggers.${a.start_trigger}`)}
        </Badge>
      ),
    },
    {
      key: 'active',
      title: t('business.automations.active'),
      render: (a) => (
        <Switch
          checked={a.active}
          onChange={(e) => onToggle(a, e.currentTarget.checked)}
          aria-label={t('business.automations.active')}
          data-testid={`automation-active-${a.id}`}
        />
      ),
    },
    {
      key: 'runs',
      title: t('business.automations.runs_column'),
      render: (a) => (
        <Text size="sm" data-testid={`automation-runs-${a.id}`}>
          {t('business.automations.runs_line', a.runs)}
        </Text>
      ),
    },
  ];

  return (
    <Stack>
      <ListHeader
        title={t('business.automations.title')}
        add={{
          label: t('business.automations.add'),
          to: pathOf('business.automation.create'),
          testId: 'automations-add',
        }}
      />
      <DataTable<TAutomation>
        path={AUTOMATIONS_PATH}
        queryKey={keys.automations.lists()}
        columns={columns}
        empty={t('business.automations.empty')}
        testId="automations-table"
        minWidth={760}
        perPage={10}
        actions={(a) => (
          <Group gap="xs" wrap="nowrap" justify="flex-end">
            <Button
              size="xs"
              variant="light"
              onClick={() => navigate(pathOf('business.automation.edit', { id: a.id }))}
              data-testid={`automation-edit-${a.id}`}
            >
              {t('business.common.edit')}
            </Button>
            <RowMenu
              label={t('business.automations.more')}
              testId={`automation-more-${a.id}`}
              actions={[
                {
                  label: t('business.automations.runs'),
                  to: `${pathOf('business.automation.edit', { id: a.id })}?view=runs`,
                  testId: `automation-runs-view-${a.id}`,
                },
                {
                  label: t('business.automations.duplicate'),
                  onClick: () => duplicate.mutate(a.id),
                  testId: `automation-duplicate-${a.id}`,
                },
                {
                  label: t('business.automations.share'),
                  onClick: () => setSharing(a),
                  testId: `automation-share-${a.id}`,
                },
                {
                  label: t('business.common.delete'),
                  color: 'red',
                  divider: true,
                  testId: `automation-delete-${a.id}`,
                  onClick: () =>
                    askDelete(
                      [
                        'business.automations.delete_title',
                        'business.automations.delete_confirm',
                        'business.common.delete',
                      ],
                      { name: a.name },
                      () => remove.mutate(a.id),
                      'automation-delete-ok',
                    ),
                },
              ]}
            />
          </Group>
        )}
      />
      <Modal
        opened={sharing !== null}
        onClose={() => setSharing(null)}
        title={t('business.automations.share_title', { name: sharing?.name ?? '' })}
      >
        {sharing && (
          <Stack gap="xs">
            <Text size="sm">{t('business.automations.share_hint')}</Text>
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <TextInput
                readOnly
                value={shareLink(sharing.share_token)}
                style={{ flex: 1 }}
                data-testid="automation-share-link"
              />
              <CopyButton value={shareLink(sharing.share_token)}>
                {({ copied, copy }) => (
                  <Button onClick={copy} data-testid="automation-share-copy">
                    {copied ? t('business.automations.copied') : t('business.automations.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        )}
      </Modal>
      <TemplatesGallery />
    </Stack>
  );
}

/** Ready-made automations of the agency's template businesses; "Use" imports one and opens the copy. */
function TemplatesGallery() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const templates = useAutomationTemplates();
  const clone = useCloneAutomation();
  const list = templates.data ?? [];
  if (list.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="automation-templates">
      <Title order={4}>{t('business.automations.templates')}</Title>
      <Text size="sm" c="dimmed">
        {t('business.automations.templates_hint')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {list.map((tpl) => (
          <Card key={tpl.id} withBorder radius="md" data-testid={`template-${tpl.id}`}>
            <Stack gap={6}>
              <Text fw={600}>{tpl.name}</Text>
              <Badge variant="light">{t(`business.automations.triggers.${tpl.start_trigger}`)}</Badge>
              <Text size="xs" c="dimmed">
                {tpl.block_kinds.map((k) => t(`business.automations.kinds.${k}`)).join(' → ')}
              </Text>
              <Button
                size="xs"
                variant="light"
                loading={clone.isPending && clone.variables === tpl.share_token}
                onClick={() =>
                  clone.mutate(tpl.share_token, {
                    onSuccess: (res) => navigate(pathOf('business.automation.edit', { id: res.data.id })),
                  })
                }
                data-testid={`template-use-${tpl.id}`}
              >
                {t('business.automations.use_template')}
              </Button>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
