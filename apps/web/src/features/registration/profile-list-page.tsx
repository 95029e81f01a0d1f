import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { TCarrierProfile } from '@stn/contracts/registration';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { confirmAction } from '../../components/list/confirm.tsx';
import { type RowAction, RowButtons } from '../../components/list/row-actions.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import {
  deleteProfile,
  type Evaluation,
  registerProfile,
  setPrimaryProfile,
  useProfiles,
  validateProfile,
} from './api/registration.ts';
import { PROFILE_LOCKED, ProblemList, ProfileStatusBadge, RejectionReasons } from './registration-parts.tsx';

// The agency's carrier customer profiles (route agency.twilioProfile, ADR 092): the business behind its
// SMS registration, as the carrier reviews it. A draft is validated and submitted for review; a rejected
// one shows the carrier's reasons and goes back to its form to be fixed and submitted again.

type Result = { id: number; evaluation: Evaluation };

export default function ProfileListPage() {
  const { t } = useTranslation();
  const profiles = useProfiles();
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);

  const run = async (key: string, fn: () => Promise<unknown>) => {
    setBusy(key);
    try {
      await fn();
    } catch {
      // The API client has said why (a toast); the list stays as it is.
    } finally {
      setBusy(null);
    }
  };

  const validate = (p: TCarrierProfile) =>
    run(`validate-${p.id}`, async () => setResult({ id: p.id, evaluation: await validateProfile(p.id) }));

  const register = (p: TCarrierProfile) =>
    run(`register-${p.id}`, async () => {
      try {
        await registerProfile(p.id);
        setResult(null);
      } catch (err) {
        // Not compliant: show what is missing, as Validate would.
        if (err instanceof ApiError && err.code === 'VALIDATION')
          setResult({ id: p.id, evaluation: await validateProfile(p.id) });
        else throw err;
      }
    });

  const remove = (p: TCarrierProfile) =>
    confirmAction({
      title: t('registration.profiles.delete_title'),
      text: t('registration.profiles.delete_confirm', { name: p.friendly_name }),
      confirm: t('registration.profiles.delete'),
      testId: 'profile-delete-ok',
      onConfirm: () => void run(`delete-${p.id}`, () => deleteProfile(p.id)),
    });

  const actionsOf = (p: TCarrierProfile): RowAction[] => {
    const editable = !PROFILE_LOCKED.includes(p.status);
    // A rejected profile is fixed in its form first (saving it makes it a draft again).
    const draft = p.status === 'draft';
    return [
      {
        label: editable ? t('registration.profiles.edit') : t('registration.profiles.view'),
        to: pathOf('agency.twilioProfile.edit', { id: p.id }),
        testId: `profile-edit-${p.id}`,
      },
      {
        label: t('registration.profiles.validate'),
        onClick: () => void validate(p),
        testId: `profile-validate-${p.id}`,
        hidden: !draft,
      },
      {
        label: t('registration.profiles.register'),
        onClick: () => void register(p),
        testId: `profile-register-${p.id}`,
        hidden: !draft,
        color: 'green',
      },
      {
        label: t('registration.profiles.set_primary'),
        onClick: () => void run(`primary-${p.id}`, () => setPrimaryProfile(p.id)),
        testId: `profile-primary-${p.id}`,
        hidden: p.is_primary,
      },
      {
        label: t('registration.profiles.delete'),
        onClick: () => remove(p),
        testId: `profile-delete-${p.id}`,
        color: 'red',
        lock: p.in_use ? t('registration.profiles.in_use') : null,
      },
    ];
  };

  const rows = profiles.data ?? [];
  const shown = result && rows.find((p) => p.id === result.id);

  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <div>
          <Title order={2} data-testid="page-title">
            {t('registration.profiles.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('registration.profiles.intro')}
          </Text>
        </div>
        {rows.length > 0 && (
          <Button component={Link} to={pathOf('agency.twilioProfile.create')} data-testid="profile-create">
            {t('registration.profiles.create')}
          </Button>
        )}
      </Group>
      {shown && result && (
        <div data-testid="profile-evaluation">
          {result.evaluation.compliant ? (
            <Alert color="green" data-testid="profile-compliant">
              {t('registration.profiles.compliant', { name: shown.friendly_name })}
            </Alert>
          ) : (
            <ProblemList problems={result.evaluation.problems} testId="profile-problems" />
          )}
        </div>
      )}
      {profiles.isError ? (
        <LoadFailed message={profiles.error.message} testId="profiles-load-error" />
      ) : profiles.isPending ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Paper withBorder p="xl" radius="md" data-testid="profiles-empty">
          <Stack align="center">
            <Text>{t('registration.profiles.empty')}</Text>
            <Button component={Link} to={pathOf('agency.twilioProfile.create')} data-testid="profile-create">
              {t('registration.profiles.create')}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" data-testid="profiles-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('registration.profiles.friendly_name')}</Table.Th>
                <Table.Th>{t('registration.profiles.legal_name')}</Table.Th>
                <Table.Th>{t('registration.profiles.status')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.id} data-testid={`profile-row-${p.id}`}>
                  <Table.Td>
                    <Text fw={500} data-testid={`profile-name-${p.id}`}>
                      {p.friendly_name}
                    </Text>
                    {p.is_primary && (
                      <Badge size="sm" variant="outline" data-testid={`profile-is-primary-${p.id}`}>
                        {t('registration.profiles.primary')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{p.business.legal_name}</Table.Td>
                  <Table.Td>
                    <Stack gap={6} align="flex-start">
                      <ProfileStatusBadge status={p.status} testId={`profile-status-${p.id}`} />
                      {p.status === 'twilio-rejected' && (
                        <>
                          <RejectionReasons profile={p} />
                          <Anchor
                            component={Link}
                            to={pathOf('agency.twilioProfile.edit', { id: p.id })}
                            size="sm"
                            data-testid={`profile-fix-${p.id}`}
                          >
                            {t('registration.profiles.fix')}
                          </Anchor>
                        </>
                      )}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <RowButtons actions={actionsOf(p).map((a) => withBusy(a, busy))} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** While one row call runs, the other call buttons wait (one carrier call at a time). */
function withBusy(a: RowAction, busy: string | null): RowAction {
  if (!busy || a.to || a.lock) return a;
  return { ...a, lock: busy ? ' ' : null };
}
