import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  MultiSelect,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { type TBroadcast, ZBroadcastRequest } from '@stn/contracts/broadcasts';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { FormSection } from '../../components/form/form-section.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { PhoneField } from '../../components/phone-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useMediaLibrary } from '../../lib/media-library.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useRouteName } from '../../lib/use-route-name.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import {
  useBroadcast,
  useBroadcasters,
  useBusinessTimeZone,
  useMessageCredit,
  useSaveBroadcast,
  useSendTest,
} from './api/broadcasts.ts';
import { AudienceBuilder } from './audience-builder.tsx';
import {
  audienceOf,
  type BroadcastForm,
  type BroadcastValues,
  isEmptyAudience,
  type PickedMedia,
  SERVER_FIELDS,
  sendAtOf,
  toRequest,
  valuesOf,
} from './broadcast-values.ts';
import { MessageEditor } from './message-editor.tsx';
import { PhonePreview } from './phone-preview.tsx';

/** How long the builder waits after the last change before it asks for the recipient count again. */
export const CREDIT_DEBOUNCE_MS = 400;
const resolve = zodResolver(ZBroadcastRequest);

/**
 * business.broadcast.create, .edit (broadcast/:id) and .duplicate (broadcast/:id/duplicate: the broadcast's
 * values under "<name> (copy)", saved as a new one). Contacts picked on the contacts screen arrive in the
 * location's state (`contact_ids`).
 */
export default function BroadcastFormPage() {
  const id = Number(useParams().id ?? 0);
  const duplicate = useRouteName() === 'business.broadcast.duplicate';
  const broadcast = useBroadcast(id);
  const state = useLocation().state as { contact_ids?: unknown } | null;
  const contactIds = Array.isArray(state?.contact_ids)
    ? state.contact_ids.filter((x): x is number => typeof x === 'number')
    : undefined;
  if (!id) return <BroadcastFormBody key="new" broadcast={null} duplicate={false} contactIds={contactIds} />;
  if (broadcast.isError)
    return <LoadFailed message={broadcast.error.message} testId="broadcast-load-error" />;
  if (!broadcast.data) return <Loading />;
  return (
    <WithMedia broadcast={broadcast.data}>
      {(media) => (
        <BroadcastFormBody
          key={`${broadcast.data.id}-${duplicate}`}
          broadcast={broadcast.data}
          duplicate={duplicate}
          media={media}
        />
      )}
    </WithMedia>
  );
}

/**
 * A broadcast's images as the library's items: the request names images by library id, the broadcast
 * answers their urls. Images no longer in the library's pages read here are left out (ADR 064).
 */
function WithMedia(props: { broadcast: TBroadcast; children: (media: PickedMedia[]) => ReactNode }) {
  const wanted = props.broadcast.media;
  const library = useMediaLibrary(wanted.length > 0);
  if (wanted.length === 0) return props.children([]);
  if (library.isPending) return <Loading />;
  const items = library.data?.pages.flatMap((p) => p.data) ?? [];
  const media = wanted.flatMap((m) => {
    const item = items.find((i) => i.url === m.url);
    return item ? [{ id: item.id, url: item.url, name: item.name }] : [];
  });
  return props.children(media);
}

function BroadcastFormBody(props: {
  broadcast: TBroadcast | null;
  duplicate: boolean;
  contactIds?: number[];
  media?: PickedMedia[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { broadcast, duplicate } = props;
  const editing = broadcast && !duplicate ? broadcast : null;
  // Only a draft or a scheduled broadcast can change (the server refuses the rest): say so, offer a copy.
  const locked = editing !== null && editing.status !== 'draft' && editing.status !== 'scheduled';
  const businessZone = useBusinessTimeZone();
  const timeZone = editing?.time_zone ?? businessZone;
  const save = useSaveBroadcast(editing?.id ?? null);
  const starting = useRef(false);

  const { form, submit, submitting } = useApiForm<BroadcastValues>({
    initialValues: valuesOf(broadcast, {
      name: duplicate && broadcast ? t('business.broadcasts.copy_name', { name: broadcast.name }) : undefined,
      contactIds: props.contactIds,
      media: props.media,
    }),
    validate: (v) => {
      const errors: Record<string, string> = {};
      for (const [path, message] of Object.entries(resolve(toRequest(v, timeZone, starting.current))))
        errors[SERVER_FIELDS[path] ?? path] = message;
      if (v.when === 'later') {
        const at = sendAtOf(v, timeZone);
        if (!at) errors.date = t('business.broadcasts.when_required');
        else if (starting.current && Date.parse(at) <= Date.now())
          errors.date = t('business.broadcasts.when_past');
      }
      if (starting.current && isEmptyAudience(audienceOf(v)))
        errors.audience = t('business.broadcasts.audience_required');
      if (starting.current && !v.body.trim() && v.media.length === 0)
        errors.body = t('business.broadcasts.body_required');
      return errors;
    },
    fields: Object.keys(SERVER_FIELDS),
    rename: SERVER_FIELDS,
    onSubmit: (v) => save.mutateAsync(toRequest(v, timeZone, starting.current)),
    onSuccess: () => navigate(pathOf('business.broadcast')),
  });

  // The live estimate: asked again 400 ms after the audience or the message last changed.
  const v = form.values;
  const creditInput = useMemo(
    () => ({ body: v.body, media_ids: v.media.map((m) => m.id), audience: audienceOf(v) }),
    [v],
  );
  const [debounced] = useDebouncedValue(creditInput, CREDIT_DEBOUNCE_MS);
  const empty = isEmptyAudience(creditInput.audience);
  const credit = useMessageCredit(debounced, !isEmptyAudience(debounced.audience));
  const counting = credit.isFetching || JSON.stringify(debounced) !== JSON.stringify(creditInput);

  const saveDraft = () => {
    starting.current = false;
    submit();
  };
  const askStart = () => {
    starting.current = true;
    if (form.validate().hasErrors) return;
    const estimate = credit.data;
    modals.openConfirmModal({
      title: t('business.broadcasts.start_title'),
      children: (
        <Text size="sm" data-testid="broadcast-start-summary">
          {estimate
            ? t('business.broadcasts.start_confirm', {
                recipients: estimate.recipients,
                credits: estimate.credits,
              })
            : t('business.broadcasts.start_confirm_unknown')}
          {v.when === 'later'
            ? ` ${t('business.broadcasts.start_at', { at: `${v.date} ${v.time}`, zone: timeZone })}`
            : ''}
        </Text>
      ),
      labels: { confirm: t('business.broadcasts.start'), cancel: t('common.cancel') },
      confirmProps: { 'data-testid': 'broadcast-start-ok' } as Record<string, string>,
      onConfirm: () => {
        starting.current = true;
        submit();
      },
    });
  };

  const title = editing
    ? t('business.broadcasts.edit_title')
    : duplicate
      ? t('business.broadcasts.duplicate_title')
      : t('business.broadcasts.add');

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        saveDraft();
      }}
    >
      <Stack>
        <div>
          <Anchor component={Link} to={pathOf('business.broadcast')} size="sm">
            {t('business.broadcasts.back')}
          </Anchor>
          <Title order={2} data-testid="page-title">
            {title}
          </Title>
        </div>
        {locked && editing && (
          <Alert color="yellow" data-testid="broadcast-locked">
            {t('business.broadcasts.locked', { status: t(`business.broadcasts.statuses.${editing.status}`) })}{' '}
            <Anchor component={Link} to={pathOf('business.broadcast.duplicate', { id: editing.id })}>
              {t('business.broadcasts.duplicate')}
            </Anchor>
          </Alert>
        )}
        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack>
              <FormSection testId="broadcast-basics">
                <TextInput
                  label={t('business.broadcasts.name')}
                  required
                  data-testid="broadcast-name"
                  {...form.getInputProps('name')}
                />
                <SendingNumbers form={form} />
              </FormSection>
              <AudienceBuilder
                form={form}
                credit={credit.isError ? undefined : credit.data}
                counting={counting}
                failed={credit.isError && !counting}
                empty={empty}
              />
              <MessageEditor form={form} />
              <Schedule form={form} timeZone={timeZone} />
              <SendTest form={form} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <div style={{ position: 'sticky', top: 16 }}>
              <PhonePreview body={v.body} media={v.media} />
            </div>
          </Grid.Col>
        </Grid>
        <Group justify="flex-end">
          <Button variant="default" component={Link} to={pathOf('business.broadcast')}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="light"
            loading={submitting && !starting.current}
            disabled={locked}
            data-testid="broadcast-save-draft"
          >
            {editing?.status === 'scheduled' ? t('common.save') : t('business.broadcasts.save_draft')}
          </Button>
          <Button
            onClick={askStart}
            loading={submitting && starting.current}
            disabled={locked || (credit.data ? !credit.data.fits : false)}
            data-testid="broadcast-start"
          >
            {v.when === 'later' ? t('business.broadcasts.schedule') : t('business.broadcasts.start')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The broadcasters it sends from (none chosen: every active one); a link to add some when there are none. */
function SendingNumbers({ form }: { form: BroadcastForm }) {
  const { t } = useTranslation();
  const broadcasters = useBroadcasters();
  const list = broadcasters.data ?? [];
  if (broadcasters.isSuccess && list.length === 0)
    return (
      <Alert color="yellow" data-testid="broadcast-no-numbers">
        {t('business.broadcasts.no_numbers')}{' '}
        <Anchor component={Link} to={pathOf('business.setting.broadcast-numbers')}>
          {t('business.broadcasts.numbers_link')}
        </Anchor>
      </Alert>
    );
  return (
    <MultiSelect
      label={t('business.broadcasts.sending_numbers')}
      description={t('business.broadcasts.sending_numbers_hint')}
      placeholder={t('business.broadcasts.all_numbers')}
      data={list.map((b) => ({
        value: String(b.id),
        label: `${b.friendly_name || b.phone_number} (${b.phone_number})`,
        disabled: !b.active,
      }))}
      searchable
      clearable
      data-testid="broadcast-numbers"
      {...form.getInputProps('broadcaster_ids')}
    />
  );
}

/** Send now (when started) or at a date and time in the business's time zone. */
function Schedule({ form, timeZone }: { form: BroadcastForm; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <FormSection title={t('business.broadcasts.when')} testId="broadcast-schedule">
      <SegmentedControl
        value={form.values.when}
        onChange={(w) => form.setFieldValue('when', w as 'now' | 'later')}
        data={[
          { value: 'now', label: t('business.broadcasts.when_now') },
          { value: 'later', label: t('business.broadcasts.when_later') },
        ]}
        data-testid="broadcast-when"
      />
      {form.values.when === 'later' && (
        <Group align="flex-start">
          <TextInput
            type="date"
            label={t('business.broadcasts.date')}
            data-testid="broadcast-date"
            {...form.getInputProps('date')}
          />
          <TextInput
            type="time"
            label={t('business.broadcasts.time')}
            data-testid="broadcast-time"
            {...form.getInputProps('time')}
          />
        </Group>
      )}
      <Text size="xs" c="dimmed" data-testid="broadcast-time-zone">
        {t('business.broadcasts.time_zone', { zone: timeZone })}
      </Text>
    </FormSection>
  );
}

/** "Send test": the message as it is now, filled for a sample contact, to one phone. */
function SendTest({ form }: { form: BroadcastForm }) {
  const { t } = useTranslation();
  const test = useSendTest();
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = () => {
    if (!phone) {
      setError(t('business.broadcasts.test_phone_required'));
      return;
    }
    if (!form.values.body.trim() && form.values.media.length === 0) {
      form.setFieldError('body', t('business.broadcasts.body_required'));
      return;
    }
    setError(null);
    const broadcaster = form.values.broadcaster_ids[0];
    test.mutate(
      {
        phone,
        body: form.values.body,
        media_ids: form.values.media.map((m) => m.id),
        broadcaster_id: broadcaster ? Number(broadcaster) : undefined,
      },
      { onError: (err) => setError(err instanceof ApiError ? (err.field('phone') ?? null) : null) },
    );
  };
  return (
    <FormSection
      title={t('business.broadcasts.test_title')}
      hint={t('business.broadcasts.test_hint')}
      testId="broadcast-test"
    >
      <Group align="flex-end">
        <div style={{ flex: 1 }}>
          <PhoneField
            label={t('business.broadcasts.test_phone')}
            value={phone}
            onChange={(p) => {
              setPhone(p);
              setError(null);
            }}
            error={error}
            data-testid="broadcast-test-phone"
          />
        </div>
        <Button variant="default" onClick={send} loading={test.isPending} data-testid="broadcast-test-send">
          {t('business.broadcasts.test_send')}
        </Button>
      </Group>
      {test.isSuccess && (
        <Text size="sm" c="green" data-testid="broadcast-test-sent">
          {t('business.broadcasts.test_sent', { phone })}
        </Text>
      )}
    </FormSection>
  );
}
