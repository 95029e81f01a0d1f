import { Anchor, Badge, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TRun } from '@stn/contracts/automations';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { confirmAction } from '../../components/list/confirm.tsx';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { queryClient } from '../../lib/query-client.ts';
import { keys } from '../../lib/query-keys.ts';

// A contact and the automations (spec 001: POST and DELETE /v1/contacts/{id}/automation/{automationId},
// POST /v1/contacts/bulk-automation/{id}): the contact's journeys with a stop for those in progress and a
// way to add it to one; and the contacts list's bulk "Add to automation". The journeys are read from
// GET /v1/automations/contact/{contactId}/runs; the automations' screens are linked, not imported.

type Ref = { id: number; name: string; active: boolean };
type RunRow = Omit<TRun, 'steps'>;
const LIVE = ['active', 'waiting'];

function useActiveAutomations() {
  return useQuery({
    queryKey: keys.automations.refs(),
    queryFn: async () => (await api<{ data: Ref[] }>('/v1/automations/all', { silent: true })).data,
    select: (all) => all.filter((a) => a.active),
  });
}

const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.automations.all });

/** The contact's journeys and "Add to automation" (the contact's edit screen). */
export function ContactAutomations({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  const runs = useQuery({
    queryKey: keys.automations.contactRuns(contactId),
    queryFn: async () =>
      (
        await api<{ data: RunRow[] }>(`/v1/automations/contact/${contactId}/runs`, {
          query: { perPage: 20 },
          silent: true,
        })
      ).data,
    // A journey in progress is being worked right now: read again until it settles (at a Wait, or done),
    // so the card never stays on a state the runner has already moved on from.
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === 'active') ? 1500 : false),
  });
  const stop = useMutation({
    mutationFn: (automationId: number) =>
      api(`/v1/contacts/${contactId}/automation/${automationId}`, { method: 'DELETE' }),
    onSettled: refresh,
  });
  const list = runs.data ?? [];
  return (
    <Paper withBorder p="lg" radius="md" data-testid="contact-automations">
      <Stack gap="sm">
        <Title order={4}>{t('business.automations.contact.title')}</Title>
        {list.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('business.automations.contact.none')}
          </Text>
        ) : (
          <Table fz="sm">
            <Table.Tbody>
              {list.map((r) => (
                <Table.Tr key={r.id} data-testid={`contact-run-${r.id}`}>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`${pathOf('business.automation.edit', { id: r.automation_id })}?view=runs`}
                    >
                      {r.automation_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light">{t(`business.automations.run_statuses.${r.status}`)}</Badge>
                  </Table.Td>
                  <Table.Td>{formatDate(r.started_at, 'long')}</Table.Td>
                  <Table.Td>
                    {LIVE.includes(r.status) && (
                      <Button
                        size="xs"
                        variant="light"
                        color="orange"
                        data-testid={`contact-run-stop-${r.id}`}
                        onClick={() =>
                          confirmAction({
                            title: t('business.automations.stop_title'),
                            text: t('business.automations.contact.stop_confirm', { name: r.automation_name }),
                            confirm: t('business.automations.stop'),
                            color: 'orange',
                            testId: 'contact-run-stop-ok',
                            onConfirm: () => stop.mutate(r.automation_id),
                          })
                        }
                      >
                        {t('business.automations.stop')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <AddToAutomation
          testId="contact-add-automation"
          call={(automationId) =>
            api(`/v1/contacts/${contactId}/automation/${automationId}`, { method: 'POST' })
          }
        />
      </Stack>
    </Paper>
  );
}

/** The contacts list's bulk "Add to automation" (in a dialog). */
export function openBulkAutomation(ids: number[], onDone: () => void, title: string) {
  modals.open({
    title,
    children: (
      <AddToAutomation
        testId="contacts-bulk-automation"
        call={(automationId) =>
          api(`/v1/contacts/bulk-automation/${automationId}`, { method: 'POST', body: { ids } })
        }
        onDone={() => {
          modals.closeAll();
          onDone();
        }}
      />
    ),
  });
}

/** Pick an active automation and add: the answer's message is the API client's toast. */
function AddToAutomation(props: {
  testId: string;
  call: (automationId: number) => Promise<unknown>;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const automations = useActiveAutomations();
  const [picked, setPicked] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (id: number) => props.call(id),
    onSuccess: () => {
      setPicked(null);
      props.onDone?.();
    },
    onSettled: refresh,
  });
  return (
    <Group align="flex-end" gap="xs">
      <Select
        label={t('business.automations.contact.add')}
        placeholder={t('business.automations.contact.pick')}
        data={(automations.data ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
        value={picked}
        onChange={(v) => {
          setPicked(v);
          setError(null);
        }}
        error={error}
        searchable
        style={{ flex: 1 }}
        data-testid={`${props.testId}-pick`}
      />
      <Button
        variant="light"
        loading={add.isPending}
        onClick={() =>
          picked ? add.mutate(Number(picked)) : setError(t('business.automations.contact.pick_required'))
        }
        data-testid={`${props.testId}-add`}
      >
        {t('business.automations.contact.add_button')}
      </Button>
    </Group>
  );
}
