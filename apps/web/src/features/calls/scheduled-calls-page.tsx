import { Button, Group, Modal, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { TCall } from '@stn/contracts/telephony';
import { z } from '@stn/contracts/zod';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { PhoneField } from '../../components/phone-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { keys } from '../../lib/query-keys.ts';
import { zPhone, zRequiredSelect } from '../../lib/validation-messages.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { SCHEDULED_CALLS_PATH, useCancelScheduledCall, useScheduleCall } from './api/calls.ts';
import { InstallSelect, OutcomeBadge, VisitorCell } from './call-badges.tsx';
import { localInstant, todayLocal } from './call-format.ts';

/** Scheduled calls (route business.schedule.calls): the list, "Schedule a call", and cancel with a confirm. */
export default function ScheduledCallsPage() {
  const { t } = useTranslation();
  const [formOpen, setFormOpen] = useState(false);
  const cancel = useCancelScheduledCall();

  const confirmCancel = (row: TCall) =>
    confirmAction({
      title: t('business.calls.schedule.cancel_title'),
      text: t('business.calls.schedule.cancel_confirm', {
        phone: row.visitor_phone,
        at: formatDate(row.scheduled_for, 'long'),
      }),
      confirm: t('business.calls.schedule.cancel_call'),
      cancel: t('business.calls.schedule.keep'),
      onConfirm: () => cancel.mutate(row.id),
      testId: 'scheduled-call-cancel-ok',
    });

  const columns: Column<TCall>[] = [
    {
      key: 'when',
      title: t('business.calls.scheduled_for'),
      render: (c) => (
        <span data-testid={`scheduled-call-when-${c.id}`}>{formatDate(c.scheduled_for, 'long')}</span>
      ),
    },
    {
      key: 'visitor',
      title: t('business.calls.visitor'),
      render: (c) => (
        <VisitorCell phone={c.visitor_phone} name={c.visitor_name} testId={`scheduled-call-phone-${c.id}`} />
      ),
    },
    { key: 'install', title: t('business.calls.install'), render: (c) => c.install_name },
    {
      key: 'outcome',
      title: t('business.calls.outcome_label'),
      render: (c) => <OutcomeBadge outcome={c.outcome} testId={`scheduled-call-outcome-${c.id}`} />,
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('business.calls.schedule.title')}
        </Title>
        <Button onClick={() => setFormOpen(true)} data-testid="schedule-call-open">
          {t('business.calls.schedule.add')}
        </Button>
      </Group>
      <Text c="dimmed" size="sm">
        {t('business.calls.schedule.hint')}
      </Text>
      <DataTable<TCall>
        path={SCHEDULED_CALLS_PATH}
        queryKey={keys.scheduledCalls.list()}
        columns={columns}
        empty={t('business.calls.schedule.empty')}
        testId="scheduled-calls-table"
        minWidth={640}
        actions={(c) =>
          c.outcome === 'scheduled' ? (
            <Group justify="flex-end">
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => confirmCancel(c)}
                data-testid={`scheduled-call-cancel-${c.id}`}
              >
                {t('business.calls.schedule.cancel_call')}
              </Button>
            </Group>
          ) : null
        }
      />
      <Modal
        opened={formOpen}
        onClose={() => setFormOpen(false)}
        title={<Title order={3}>{t('business.calls.schedule.add')}</Title>}
        size="lg"
      >
        {formOpen && <ScheduleCallForm onDone={() => setFormOpen(false)} />}
      </Modal>
    </Stack>
  );
}

type Values = { install_id: string | null; phone: string; name: string; date: string; time: string };

const ZScheduleForm = z.object({
  install_id: zRequiredSelect(),
  phone: zPhone(),
  name: z.string().trim().max(100),
  date: z.string().min(1),
  time: z.string().min(1),
});

/**
 * The form of "Schedule a call": an install, the visitor's phone ('Wrong phone number format!!'), a name and
 * the date and time, read in the browser's time zone (shown under the fields) and sent with its offset.
 */
function ScheduleCallForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const save = useScheduleCall();
  const resolve = zodResolver<Values>(ZScheduleForm);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const form = useForm<Values>({
    initialValues: { install_id: null, phone: '', name: '', date: '', time: '' },
    validate: (v) => {
      const errors: Record<string, string> = resolve({ ...v, install_id: v.install_id ?? '' });
      // 'The {name} field is required' with the label the person sees, in their language.
      const labels: Record<string, string> = {
        install_id: t('business.calls.install'),
        date: t('business.calls.schedule.date'),
        time: t('business.calls.schedule.time'),
      };
      for (const [field, name] of Object.entries(labels))
        if (errors[field]) errors[field] = t('validation.required', { name });
      if (!errors.date && !errors.time) {
        const at = localInstant(v.date, v.time);
        if (!at) errors.date = t('business.calls.schedule.bad_date');
        else if (Date.parse(at) <= Date.now()) errors.date = t('business.calls.schedule.in_past');
      }
      return errors;
    },
  });
  const submit = form.onSubmit(async (v) => {
    const scheduled_at = localInstant(v.date, v.time);
    if (!scheduled_at || !v.install_id) return;
    try {
      await save.mutateAsync({
        install_id: Number(v.install_id),
        phone: v.phone,
        name: v.name.trim() || undefined,
        scheduled_at,
      });
      onDone();
    } catch (err) {
      applyServerErrors(form, err, ['install_id', 'phone', 'name']);
      // The server's scheduled_at is the date and time together: its message goes under the date.
      const when = err instanceof ApiError ? err.field('scheduled_at') : undefined;
      if (when) form.setFieldError('date', when);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="schedule-call-form">
      <Stack>
        <InstallSelect
          label={t('business.calls.install')}
          required
          value={form.values.install_id}
          onChange={(v) => form.setFieldValue('install_id', v)}
          error={form.errors.install_id as string | undefined}
          testId="schedule-call-install"
        />
        <PhoneField
          label={t('business.calls.schedule.phone')}
          required
          data-testid="schedule-call-phone"
          {...form.getInputProps('phone')}
          value={form.values.phone}
        />
        <TextInput
          label={t('business.calls.schedule.name')}
          {...form.getInputProps('name')}
          data-testid="schedule-call-name"
        />
        <SimpleGrid cols={2}>
          <TextInput
            type="date"
            required
            min={todayLocal()}
            label={t('business.calls.schedule.date')}
            {...form.getInputProps('date')}
            data-testid="schedule-call-date"
          />
          <TextInput
            type="time"
            required
            label={t('business.calls.schedule.time')}
            {...form.getInputProps('time')}
            data-testid="schedule-call-time"
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('business.calls.schedule.zone_hint', { zone })}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="schedule-call-submit">
            {t('business.calls.schedule.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
