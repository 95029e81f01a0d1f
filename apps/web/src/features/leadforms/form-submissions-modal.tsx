import { Anchor, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import type { TLeadForm, TLeadSubmission } from '@stn/contracts/leadforms';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LeadSubmissionCard } from '../../components/lead-submission-card.tsx';
import { api } from '../../lib/api-client.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';

const PER_PAGE = 20;

/**
 * A lead form's submissions, newest first (GET /v1/leadSubmissions?lead_form_id=), 20 a page, each with a
 * link to its contact: what a business reads after a campaign without opening contact after contact.
 */
export function FormSubmissionsModal({ form, onClose }: { form: TLeadForm; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: keys.leadSubmissions.form(form.id, page),
    placeholderData: keepPreviousData,
    queryFn: () =>
      api<{ data: TLeadSubmission[]; meta: { total: number } }>('/v1/leadSubmissions', {
        query: { lead_form_id: form.id, page, perPage: PER_PAGE },
      }),
  });
  const total = list.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={t('business.leadForms.list_submissions.submissions_of', { name: form.name })}
      data-testid="leadform-submissions-modal"
    >
      {list.isPending ? (
        <Loader size="sm" />
      ) : list.isError ? (
        <Text c="red" size="sm">
          {list.error.message || t('common.load_failed')}
        </Text>
      ) : total === 0 ? (
        <Text c="dimmed" size="sm" data-testid="leadform-submissions-none">
          {t('business.leadForms.list_submissions.submissions_none')}
        </Text>
      ) : (
        <Stack gap="sm">
          {list.data.data.map((lead) => (
            <Stack key={lead.id} gap={4}>
              <LeadSubmissionCard lead={lead} />
              {lead.contact_id !== null && (
                <Anchor
                  component={Link}
                  to={pathOf('business.contacts.edit', { id: lead.contact_id })}
                  size="sm"
                  data-testid={`lead-${lead.id}-contact`}
                >
                  {t('business.leadForms.list_submissions.open_contact')}
                </Anchor>
              )}
            </Stack>
          ))}
          {pages > 1 && (
            <Group justify="space-between">
              <Button variant="default" size="xs" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('business.leadForms.list_submissions.newer')}
              </Button>
              <Text size="sm" c="dimmed">
                {t('business.leadForms.list_submissions.page_of', { page, pages })}
              </Text>
              <Button
                variant="default"
                size="xs"
                disabled={page >= pages}
                onClick={() => setPage(page + 1)}
                data-testid="leadform-submissions-older"
              >
                {t('business.leadForms.list_submissions.older')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Modal>
  );
}
