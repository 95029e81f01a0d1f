import { Alert, Badge, List, Text } from '@mantine/core';
import type {
  TCarrierProfile,
  TProfileProblem,
  TProfileStatus,
  TRegistrationState,
} from '@stn/contracts/registration';
import { useTranslation } from 'react-i18next';

// Pieces the registration screens share: status badges, the problems a validation found, and the locale
// key of a carrier constant (Twilio's values, e.g. 'Limited Liability Corporation' → limited_liability_corporation).

/** The locale key part of a constant value. */
export const slug = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/** Options of a select over a list of carrier constants, labelled from `registration.<group>.<slug>`. */
export function useOptions(group: string, values: readonly string[]) {
  const { t } = useTranslation();
  return values.map((v) => ({ value: v, label: t(`registration.${group}.${slug(v)}`) }));
}

const PROFILE_COLORS: Record<TProfileStatus, string> = {
  draft: 'gray',
  'pending-review': 'blue',
  'in-review': 'blue',
  'twilio-approved': 'green',
  'twilio-rejected': 'red',
};

export function ProfileStatusBadge({ status, testId }: { status: TProfileStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={PROFILE_COLORS[status]} variant="light" data-testid={testId} data-status={status}>
      {t(`registration.profile_status.${slug(status)}`)}
    </Badge>
  );
}

const STATE_COLORS: Record<TRegistrationState | 'none', string> = {
  none: 'gray',
  'brand-pending': 'blue',
  'campaign-pending': 'blue',
  approved: 'green',
  failed: 'red',
};

/** Our summary of the A2P registration (none: not registered). */
export function RegistrationStateBadge({
  state,
  testId,
}: {
  state: TRegistrationState | 'none';
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLORS[state]} variant="light" size="lg" data-testid={testId} data-status={state}>
      {t(`registration.state.${slug(state)}`)}
    </Badge>
  );
}

/** A carrier's status word (APPROVED, IN_PROGRESS...), as a badge; '—' when there is none yet. */
export function CarrierStatusBadge({
  status,
  label,
  testId,
}: {
  status: string | null;
  /** Our words for it, where we have them (else the carrier's, lower-cased). */
  label?: string;
  testId?: string;
}) {
  if (!status) return <Text span>—</Text>;
  const s = status.toUpperCase();
  const color = /APPROVED|VERIFIED/.test(s) ? 'green' : /FAIL|REJECT/.test(s) ? 'red' : 'blue';
  return (
    <Badge color={color} variant="light" data-testid={testId} data-status={status}>
      {label ?? status.replace(/[_-]+/g, ' ').toLowerCase()}
    </Badge>
  );
}

/** What a validation found missing, part by part ("Business · EIN: …"). */
export function ProblemList({ problems, testId }: { problems: readonly TProfileProblem[]; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" title={t('registration.profiles.problems_title')} data-testid={testId}>
      <List size="sm" spacing={4}>
        {problems.map((p) => (
          <List.Item key={`${p.part}-${p.field ?? ''}-${p.reason}`} data-testid="profile-problem">
            <Text span fw={600} size="sm">
              {t(`registration.parts.${slug(p.part)}`, { defaultValue: p.part })}
              {p.field ? ` · ${t(`registration.fields.${slug(p.field)}`, { defaultValue: p.field })}` : ''}
            </Text>
            {`: ${p.reason}`}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** The carrier's reasons for rejecting a profile. */
export function RejectionReasons({ profile }: { profile: TCarrierProfile }) {
  const { t } = useTranslation();
  if (profile.status !== 'twilio-rejected') return null;
  return (
    <Alert
      color="red"
      title={t('registration.profiles.rejected_title')}
      data-testid={`profile-reasons-${profile.id}`}
    >
      {profile.reasons.length ? (
        <List size="sm">
          {profile.reasons.map((r) => (
            <List.Item key={r}>{r}</List.Item>
          ))}
        </List>
      ) : (
        <Text size="sm">{t('registration.profiles.rejected_no_reason')}</Text>
      )}
    </Alert>
  );
}

/** Statuses in which a profile is with the carrier or done: no edits. */
export const PROFILE_LOCKED: readonly TProfileStatus[] = ['pending-review', 'in-review', 'twilio-approved'];
/** Profiles a brand may be built on: submitted or approved. */
export const PROFILE_SUBMITTED: readonly TProfileStatus[] = [
  'pending-review',
  'in-review',
  'twilio-approved',
];
