import { Box, Image, Paper, Stack, Text } from '@mantine/core';
import { messageCount } from '@stn/contracts/chats';
import { fillTemplate } from '@stn/contracts/templates';
import { useTranslation } from 'react-i18next';
import type { PickedMedia } from './broadcast-values.ts';

/** The contact the preview fills the merge fields for. */
const SAMPLE = {
  first_name: 'Alex',
  last_name: 'Morgan',
  name: 'Alex Morgan',
  phone: '+1 512 555 0142',
  email: 'alex@example.com',
  review_link: 'https://search.google.com/local/writereview?placeid=…',
};

/**
 * A phone-shaped preview: the message as a sample contact would get it (merge fields filled, images
 * above the bubble), and the counter of spec 000 §4 under it (segments of 160, or 3 with an image).
 */
export function PhonePreview({ body, media }: { body: string; media: PickedMedia[] }) {
  const { t } = useTranslation();
  const text = fillTemplate(body, SAMPLE);
  const credits = messageCount('out', text, media.length);
  return (
    <Stack gap="xs" align="center">
      <Paper
        withBorder
        radius={36}
        p="md"
        w={280}
        h={500}
        bg="gray.0"
        style={{ borderWidth: 10, borderColor: 'var(--mantine-color-dark-7)', overflow: 'hidden' }}
        data-testid="broadcast-preview"
      >
        <Text size="xs" c="dimmed" ta="center" mb="sm">
          {t('business.broadcasts.preview_to', { name: SAMPLE.first_name })}
        </Text>
        <Stack gap={4} align="flex-start" style={{ overflowY: 'auto', maxHeight: 420 }}>
          {media.map((m) => (
            <Image key={m.id} src={m.url} alt={m.name} maw={200} radius="lg" />
          ))}
          {(text || media.length === 0) && (
            <Box
              px="sm"
              py={6}
              maw={220}
              bg={text ? 'gray.3' : undefined}
              style={{ borderRadius: 18, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
            >
              <Text size="sm" c={text ? undefined : 'dimmed'} data-testid="broadcast-preview-text">
                {text || t('business.broadcasts.preview_empty')}
              </Text>
            </Box>
          )}
        </Stack>
      </Paper>
      <Text size="xs" c="dimmed" data-testid="broadcast-counter" data-credits={credits}>
        {media.length > 0
          ? t('business.broadcasts.counter_media', { length: text.length, count: credits })
          : t('business.broadcasts.counter', { length: text.length, count: credits })}
      </Text>
    </Stack>
  );
}
