import { Alert, Anchor, Badge, Button, Group, Loader, MultiSelect, Stack, Text } from '@mantine/core';
import type { TMessageCredit } from '@stn/contracts/broadcasts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormSection } from '../../components/form/form-section.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useInstallOptions, useTagOptions } from '../../lib/pickers.ts';
import type { BroadcastForm } from './broadcast-values.ts';

/**
 * Who the broadcast goes to: tags to include and exclude, installs, the contacts picked on the contacts
 * screen; under it the live estimate (recipients, skipped, credits against what is left this month).
 */
export function AudienceBuilder(props: {
  form: BroadcastForm;
  credit: TMessageCredit | undefined;
  counting: boolean;
  /** The count was refused (a tag or install no longer there): the field messages say why. */
  failed: boolean;
  empty: boolean;
}) {
  const { t } = useTranslation();
  const { form } = props;
  const tags = useTagOptions();
  const installs = useInstallOptions();
  const tagData = (tags.data ?? []).map((tg) => ({ value: String(tg.id), label: tg.name }));
  const picked = form.values.contact_ids.length;
  return (
    <FormSection
      title={t('business.broadcasts.audience')}
      hint={t('business.broadcasts.audience_hint')}
      testId="broadcast-audience"
    >
      <MultiSelect
        label={t('business.broadcasts.tags_include')}
        data={tagData}
        searchable
        clearable
        nothingFoundMessage={t('business.broadcasts.no_tags')}
        data-testid="broadcast-tags"
        {...form.getInputProps('tag_ids')}
      />
      <MultiSelect
        label={t('business.broadcasts.tags_exclude')}
        data={tagData}
        searchable
        clearable
        nothingFoundMessage={t('business.broadcasts.no_tags')}
        data-testid="broadcast-exclude-tags"
        {...form.getInputProps('exclude_tag_ids')}
      />
      <MultiSelect
        label={t('business.broadcasts.installs')}
        description={t('business.broadcasts.installs_hint')}
        data={(installs.data ?? []).map((i) => ({ value: String(i.id), label: i.name }))}
        searchable
        clearable
        data-testid="broadcast-installs"
        {...form.getInputProps('install_ids')}
      />
      <Group justify="space-between">
        <Text size="sm" data-testid="broadcast-picked-contacts">
          {picked > 0
            ? t('business.broadcasts.picked_contacts', { count: picked })
            : t('business.broadcasts.pick_contacts_hint')}{' '}
          <Anchor component={Link} to={pathOf('business.contacts')} size="sm">
            {t('business.broadcasts.open_contacts')}
          </Anchor>
        </Text>
        {picked > 0 && (
          <Button
            size="xs"
            variant="subtle"
            onClick={() => form.setFieldValue('contact_ids', [])}
            data-testid="broadcast-clear-contacts"
          >
            {t('business.broadcasts.clear_contacts')}
          </Button>
        )}
      </Group>
      {form.errors.audience && (
        <Text size="sm" c="red" data-testid="broadcast-audience-error">
          {form.errors.audience}
        </Text>
      )}
      {props.failed ? (
        <Text size="sm" c="red" data-testid="broadcast-recipients-failed">
          {t('business.broadcasts.count_failed')}
        </Text>
      ) : (
        <Estimate credit={props.credit} counting={props.counting} empty={props.empty} />
      )}
    </FormSection>
  );
}

function Estimate({
  credit,
  counting,
  empty,
}: {
  credit: TMessageCredit | undefined;
  counting: boolean;
  empty: boolean;
}) {
  const { t } = useTranslation();
  if (empty)
    return (
      <Text size="sm" c="dimmed" data-testid="broadcast-recipients">
        {t('business.broadcasts.audience_empty')}
      </Text>
    );
  if (!credit)
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          {t('business.broadcasts.counting')}
        </Text>
      </Group>
    );
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Badge
          size="lg"
          variant="light"
          data-testid="broadcast-recipients"
          data-count={credit.recipients}
          data-total={credit.recipients + credit.skipped}
        >
          {t('business.broadcasts.recipients', { count: credit.recipients })}
        </Badge>
        {credit.skipped > 0 && (
          <Text size="sm" c="dimmed" data-testid="broadcast-skipped">
            {t('business.broadcasts.skipped', { count: credit.skipped })}
          </Text>
        )}
        {counting && <Loader size="xs" />}
      </Group>
      <Text size="sm" data-testid="broadcast-credits">
        {credit.remaining === null
          ? t('business.broadcasts.credits_unlimited', { credits: credit.credits })
          : t('business.broadcasts.credits_of', { credits: credit.credits, remaining: credit.remaining })}
      </Text>
      {!credit.fits && (
        <Alert color="red" data-testid="broadcast-no-fit">
          {t('business.broadcasts.no_fit', { credits: credit.credits, remaining: credit.remaining ?? 0 })}
        </Alert>
      )}
    </Stack>
  );
}
