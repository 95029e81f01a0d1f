import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { TLeadSubmission } from '@stn/contracts/leadforms';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../lib/format.ts';

// One lead submission as the business sees it (the contact's "Leads", the inbox's timeline): the form, when
// and where from, each answer as "label: value", the consents and the tags it gave (issue 21).

export function LeadSubmissionCard({ lead, compact }: { lead: TLeadSubmission; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Paper
      withBorder
      radius="md"
      p={compact ? 'xs' : 'sm'}
      data-testid={`lead-${lead.id}`}
      data-source={lead.source}
      bg="var(--mantine-color-grape-light)"
    >
      <Stack gap={4}>
        <Group justify="space-between" gap="xs">
          <Group gap={6}>
            <Badge color="grape" variant="filled" size="sm">
              {t('business.leadForms.submission.kind')}
            </Badge>
            <Text size="sm" fw={600} data-testid={`lead-${lead.id}-form`}>
              {lead.form_name}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            {formatDate(lead.created_at, 'long')}
          </Text>
        </Group>
        <Text size="xs" c="dimmed" data-testid={`lead-${lead.id}-source`}>
          {t(`business.leadForms.submission.sources.${lead.source}`)}
          {lead.page_url ? ` · ${lead.page_url}` : ''}
        </Text>
        <Stack gap={0} data-testid={`lead-${lead.id}-answers`}>
          {lead.answers.map((a) => (
            <Text key={a.question_id} size="sm">
              <Text span fw={500}>
                {a.label}
                {/[?:!.]$/.test(a.label.trim()) ? '' : ':'}
              </Text>{' '}
              {a.value}
            </Text>
          ))}
        </Stack>
        {lead.consents.length > 0 && (
          <Stack gap={0} data-testid={`lead-${lead.id}-consents`}>
            {lead.consents.map((c) => (
              <Text key={c.question_id} size="xs">
                {c.given ? '☑' : '☐'} {c.text}{' '}
                <Text span c={c.given ? 'teal' : 'dimmed'} size="xs">
                  (
                  {t(
                    c.given
                      ? 'business.leadForms.submission.given'
                      : 'business.leadForms.submission.not_given',
                  )}
                  )
                </Text>
              </Text>
            ))}
          </Stack>
        )}
        {lead.tags.length > 0 && (
          <Group gap={4} data-testid={`lead-${lead.id}-tags`}>
            <Text size="xs" c="dimmed">
              {t('business.leadForms.submission.tags')}
            </Text>
            {lead.tags.map((tag) => (
              <Badge key={tag.id} size="xs" variant="light">
                {tag.name}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
