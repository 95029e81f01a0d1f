import { ActionIcon, Box, Button, Group, Image, Select, Text, Textarea } from '@mantine/core';
import { TEMPLATE_MERGE_FIELDS } from '@stn/contracts/templates';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AiDraftButton } from '../../components/ai-draft-button.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { MediaLibraryModal } from '../../components/media-library-modal.tsx';
import { useSmsTemplateOptions } from '../../lib/pickers.ts';
import type { BroadcastForm } from './broadcast-values.ts';

/** The request's limit (ZBroadcastRequest.media_ids). */
const MAX_IMAGES = 10;
/** Merge fields that read better with a fallback for contacts without one ("Hi {first_name|there}"). */
const WITH_FALLBACK: readonly string[] = ['first_name', 'name'];

/**
 * The message: its text with merge-field buttons (inserted at the cursor), a template to start from, and
 * images from the business's media library.
 */
export function MessageEditor({ form }: { form: BroadcastForm }) {
  const { t } = useTranslation();
  const templates = useSmsTemplateOptions();
  const area = useRef<HTMLTextAreaElement>(null);
  const [libraryOpen, setLibraryOpen] = useState(false);
  const media = form.values.media;

  const insert = (field: string) => {
    const token = WITH_FALLBACK.includes(field)
      ? `{${field}|${t('business.broadcasts.fallback_word')}}`
      : `{${field}}`;
    const body = form.values.body;
    const el = area.current;
    const start = el?.selectionStart ?? body.length;
    const end = el?.selectionEnd ?? body.length;
    form.setFieldValue('body', body.slice(0, start) + token + body.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const pickTemplate = (id: string | null) => {
    form.setFieldValue('template_id', id);
    const template = templates.data?.find((tpl) => String(tpl.id) === id);
    if (template) form.setFieldValue('body', template.body);
  };

  return (
    <FormSection title={t('business.broadcasts.message')} testId="broadcast-message">
      <Select
        label={t('business.broadcasts.template')}
        placeholder={t('business.broadcasts.template_none')}
        data={(templates.data ?? [])
          .filter((tpl) => tpl.active !== false)
          .map((tpl) => ({ value: String(tpl.id), label: tpl.name }))}
        value={form.values.template_id}
        onChange={pickTemplate}
        error={form.errors.template_id}
        clearable
        searchable
        nothingFoundMessage={t('business.broadcasts.no_templates')}
        data-testid="broadcast-template"
      />
      <div>
        <Group gap={4} mb={4}>
          <Text size="xs" c="dimmed">
            {t('business.broadcasts.insert_field')}
          </Text>
          {TEMPLATE_MERGE_FIELDS.map((field) => (
            <Button
              key={field}
              size="compact-xs"
              variant="light"
              onClick={() => insert(field)}
              data-testid={`broadcast-merge-${field}`}
            >
              {t(`business.broadcasts.fields.${field}`)}
            </Button>
          ))}
        </Group>
        <AiDraftButton kind="broadcast" onDraft={(draft) => form.setFieldValue('body', draft)} />
        <Textarea
          ref={area}
          label={t('business.broadcasts.body')}
          autosize
          minRows={4}
          maxLength={1600}
          data-testid="broadcast-body"
          {...form.getInputProps('body')}
        />
      </div>
      <Group gap="xs" align="flex-start">
        {media.map((m) => (
          <Box key={m.id} pos="relative">
            <Image src={m.url} alt={m.name} w={72} h={72} fit="cover" radius="sm" />
            <ActionIcon
              size="xs"
              color="red"
              pos="absolute"
              top={2}
              right={2}
              aria-label={t('business.broadcasts.remove_image', { name: m.name })}
              onClick={() =>
                form.setFieldValue(
                  'media',
                  media.filter((x) => x.id !== m.id),
                )
              }
              data-testid={`broadcast-media-remove-${m.id}`}
            >
              ×
            </ActionIcon>
          </Box>
        ))}
        <Button
          variant="default"
          size="xs"
          onClick={() => setLibraryOpen(true)}
          disabled={media.length >= MAX_IMAGES}
          data-testid="broadcast-open-media"
        >
          {t('media_library.open')}
        </Button>
      </Group>
      {form.errors.media && (
        <Text size="sm" c="red">
          {form.errors.media}
        </Text>
      )}
      <MediaLibraryModal
        opened={libraryOpen}
        onClose={() => setLibraryOpen(false)}
        max={MAX_IMAGES - media.length}
        onPick={(picked) => {
          const ids = new Set(media.map((m) => m.id));
          form.setFieldValue('media', [
            ...media,
            ...picked.filter((p) => !ids.has(p.id)).map((p) => ({ id: p.id, url: p.url, name: p.name })),
          ]);
          setLibraryOpen(false);
        }}
      />
    </FormSection>
  );
}
