import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LeadSubmissionCard } from '../../components/lead-submission-card.tsx';
import { useContactLeads } from '../../lib/lead-submissions.ts';

/** The contact's lead submissions, newest first (issue 21): form, when, where from, answers, consents, tags. */
export function ContactLeads({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  const leads = useContactLeads(contactId, 'contact');
  const list = leads.data ?? [];
  return (
    <Paper withBorder p="lg" radius="md" data-testid="contact-leads">
      <Stack gap="sm">
        <Title order={4}>{t('business.leadForms.submission.title')}</Title>
        {leads.isError ? (
          <Text size="sm" c="red">
            {t('common.load_failed')}
          </Text>
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed">
            {leads.isPending ? t('common.loading') : t('business.leadForms.submission.none')}
          </Text>
        ) : (
          list.map((lead) => <LeadSubmissionCard key={lead.id} lead={lead} />)
        )}
      </Stack>
    </Paper>
  );
}
