import { Alert, Button, List, Modal, Paper, Stack, Text } from '@mantine/core';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { Restricted } from './api/inbox.ts';

/** The filtered text in pieces: plain runs and the restricted words, each marked. */
export function markedPieces(r: Restricted): { text: string; marked: boolean }[] {
  const out: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const m of [...r.marks].sort((a, b) => a.start - b.start)) {
    if (m.start < at || m.end > r.preview.length) continue;
    if (m.start > at) out.push({ text: r.preview.slice(at, m.start), marked: false });
    out.push({ text: r.preview.slice(m.start, m.end), marked: true });
    at = m.end;
  }
  if (at < r.preview.length) out.push({ text: r.preview.slice(at), marked: false });
  return out;
}

/**
 * 'Restricted Message Content' of spec 000 §8: shown when a send is refused for its content; it shows the
 * filtered preview, the message with each restricted word masked and marked, and closes only with
 * 'Got It' (no close button, no Escape, no click outside).
 */
export function RestrictedContentModal({
  preview,
  onClose,
}: {
  preview: Restricted | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const pieces = preview ? markedPieces(preview) : [];
  return (
    <Modal
      opened={preview !== null}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      title={t('inbox.restricted.title')}
      centered
    >
      <Stack data-testid="restricted-content-modal">
        <Text size="sm">{t('inbox.restricted.intro')}</Text>
        <List size="sm">
          <List.Item>{t('inbox.restricted.violence')}</List.Item>
          <List.Item>{t('inbox.restricted.adult')}</List.Item>
          <List.Item>{t('inbox.restricted.profanity')}</List.Item>
          <List.Item>{t('inbox.restricted.hate')}</List.Item>
          <List.Item>{t('inbox.restricted.drugs')}</List.Item>
        </List>
        <Alert color="red">{t('inbox.restricted.warning')}</Alert>
        <Text size="sm" fw={600}>
          {t('inbox.restricted.preview')}
        </Text>
        <Paper withBorder p="xs" bg="gray.0">
          <Text size="sm" data-testid="restricted-preview" style={{ whiteSpace: 'pre-wrap' }}>
            {pieces.map((p, i) =>
              p.marked ? (
                <mark
                  // biome-ignore lint/suspicious/noArrayIndexKey: pieces have no identity but their place
                  key={i}
                  data-testid="restricted-word"
                  style={{ background: 'var(--mantine-color-red-2)', fontWeight: 600 }}
                >
                  {p.text}
                </mark>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: pieces have no identity but their place
                <Fragment key={i}>{p.text}</Fragment>
              ),
            )}
          </Text>
        </Paper>
        {preview && preview.marks.length > 0 && (
          <Text size="xs" c="dimmed">
            {t('inbox.restricted_marks')}
          </Text>
        )}
        <Button onClick={onClose}>{t('inbox.restricted.ok')}</Button>
      </Stack>
    </Modal>
  );
}
