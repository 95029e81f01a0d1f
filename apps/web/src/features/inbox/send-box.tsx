import {
  ActionIcon,
  Button,
  CloseButton,
  FileButton,
  Group,
  Image,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AiDraftButton } from '../../components/ai-draft-button.tsx';
import { MediaLibraryModal } from '../../components/media-library-modal.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { readDataUrl } from '../../lib/files.ts';
import type { LibraryMedia } from '../../lib/media-library.ts';
import { textValue } from '../../lib/text-value.ts';
import { toastNote } from '../../lib/toast.ts';
import { type Restricted, restrictedPreview, useSend, useSmsTemplates } from './api/inbox.ts';
import { messageCount } from './message-count.ts';
import { RestrictedContentModal } from './restricted-content-modal.tsx';

const MAX_IMAGES = 5;

/**
 * The send box: text, images, a template, a time to schedule it; the counter of spec 000 §4. A `draft`
 * (text back after a missed call) replaces the text and puts the cursor in it, ready to edit or send.
 */
export function SendBox({
  contactId,
  disabledReason,
  draft = null,
}: {
  contactId: number;
  disabledReason: string | null;
  draft?: { text: string; nonce: number } | null;
}) {
  const { t } = useTranslation();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const send = useSend(contactId);
  const templates = useSmsTemplates();
  const [body, setBody] = useState('');
  const [images, setImages] = useState<string[]>([]);
  /** Images picked from the business's media library (sent by id). */
  const [library, setLibrary] = useState<LibraryMedia[]>([]);
  const [libraryOpen, setLibraryOpen] = useState(false);
  const attached = images.length + library.length;
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [sendAt, setSendAt] = useState('');
  const [scheduling, setScheduling] = useState(false);
  const [restricted, setRestricted] = useState<Restricted | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    if (!draft) return;
    setBody(draft.text);
    textarea.current?.focus();
  }, [draft]);

  const addFiles = async (files: File[]) => {
    const images = files.filter((f) => f.type.startsWith('image/'));
    if (images.length < files.length) toastNote(t('inbox.send.images_only'));
    const urls = await Promise.all(images.map(readDataUrl));
    setImages((cur) => [...cur, ...urls].slice(0, Math.max(0, MAX_IMAGES - library.length)));
  };

  const pickFromLibrary = (picked: LibraryMedia[]) =>
    setLibrary((cur) =>
      [...cur, ...picked.filter((m) => !cur.some((c) => c.id === m.id))].slice(0, MAX_IMAGES - images.length),
    );

  const pickTemplate = (id: string | null) => {
    setTemplateId(id);
    const template = templates.data?.find((tpl) => String(tpl.id) === id);
    if (template) setBody(template.body);
  };

  const submit = () => {
    setRefusal(null);
    if (!body.trim() && attached === 0) return;
    if (scheduling && !sendAt) {
      setRefusal(t('inbox.send.when_required'));
      return;
    }
    send.mutate(
      {
        body,
        media: images,
        media_ids: library.map((m) => m.id),
        template_id: templateId ? Number(templateId) : undefined,
        send_at: scheduling && sendAt ? new Date(sendAt).toISOString() : undefined,
      },
      {
        onSuccess: () => {
          setBody('');
          setImages([]);
          setLibrary([]);
          setTemplateId(null);
          setSendAt('');
          setScheduling(false);
        },
        onError: (err) => {
          const preview = restrictedPreview(err);
          if (preview !== null) return setRestricted(preview);
          const message =
            err instanceof ApiError
              ? (Object.values(err.body?.errors ?? {})[0]?.[0] ?? err.message)
              : t('inbox.send.failed');
          setRefusal(message);
        },
      },
    );
  };

  const count = messageCount(body, attached);
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        {disabledReason && (
          <Text size="sm" c="orange" data-testid="send-warning">
            {disabledReason}
          </Text>
        )}
        {refusal && (
          <Text size="sm" c="red" role="alert" data-testid="send-refusal">
            {refusal}
          </Text>
        )}
        {attached > 0 && (
          <Group gap="xs" data-testid="attached-images">
            {images.map((src, i) => (
              <div key={src.slice(-40) + String(i)} style={{ position: 'relative' }}>
                <Image src={src} w={64} h={64} fit="cover" radius="sm" alt="" />
                <CloseButton
                  size="xs"
                  style={{ position: 'absolute', top: 0, right: 0 }}
                  aria-label={t('inbox.send.remove_image')}
                  onClick={() => setImages((cur) => cur.filter((_, j) => j !== i))}
                />
              </div>
            ))}
            {library.map((m) => (
              <div
                key={`library-${m.id}`}
                style={{ position: 'relative' }}
                data-testid="attached-library-image"
              >
                <Image src={m.url} w={64} h={64} fit="cover" radius="sm" alt={m.name} />
                <CloseButton
                  size="xs"
                  style={{ position: 'absolute', top: 0, right: 0 }}
                  aria-label={t('inbox.send.remove_image')}
                  onClick={() => setLibrary((cur) => cur.filter((x) => x.id !== m.id))}
                />
              </div>
            ))}
          </Group>
        )}
        <Textarea
          aria-label={t('inbox.send.placeholder')}
          placeholder={t('inbox.send.placeholder')}
          autosize
          minRows={2}
          maxRows={6}
          maxLength={1600}
          {...textValue(body, setBody)}
          ref={textarea}
          data-testid="send-body"
        />
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <FileButton
              onChange={(files) => void addFiles(files)}
              accept="image/png,image/jpeg,image/gif,image/webp"
              multiple
            >
              {(props) => (
                <ActionIcon
                  {...props}
                  variant="default"
                  size="lg"
                  aria-label={t('inbox.send.attach')}
                  data-testid="attach-image"
                >
                  +
                </ActionIcon>
              )}
            </FileButton>
            <Button
              size="xs"
              variant="default"
              onClick={() => setLibraryOpen(true)}
              disabled={attached >= MAX_IMAGES}
              data-testid="open-media-library"
            >
              {t('media_library.open')}
            </Button>
            <Select
              size="xs"
              w={180}
              placeholder={t('inbox.send.template')}
              data={(templates.data ?? [])
                .filter((tpl) => tpl.active !== false)
                .map((tpl) => ({ value: String(tpl.id), label: tpl.name }))}
              value={templateId}
              onChange={pickTemplate}
              clearable
              nothingFoundMessage={t('inbox.send.no_templates')}
            />
            <AiDraftButton kind="text" inline onDraft={setBody} />
            <Button
              size="xs"
              variant={scheduling ? 'filled' : 'default'}
              onClick={() => setScheduling((s) => !s)}
            >
              {t('inbox.send.schedule')}
            </Button>
            {scheduling && (
              <TextInput
                size="xs"
                type="datetime-local"
                aria-label={t('inbox.send.when')}
                {...textValue(sendAt, setSendAt)}
              />
            )}
          </Group>
          <Group gap="xs">
            <Text size="xs" c="dimmed" data-testid="message-counter">
              {t('inbox.send.counter', { length: body.length, count })}
            </Text>
            <Button
              onClick={submit}
              loading={send.isPending}
              disabled={!body.trim() && attached === 0}
              data-testid="send-button"
            >
              {scheduling ? t('inbox.send.schedule_button') : t('inbox.send.button')}
            </Button>
          </Group>
        </Group>
      </Stack>
      <RestrictedContentModal preview={restricted} onClose={() => setRestricted(null)} />
      <MediaLibraryModal
        opened={libraryOpen}
        onClose={() => setLibraryOpen(false)}
        max={MAX_IMAGES - attached}
        onPick={pickFromLibrary}
      />
    </Paper>
  );
}
