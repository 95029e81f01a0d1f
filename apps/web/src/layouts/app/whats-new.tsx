import { Anchor, Button, Group, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import type { TUser } from '@stn/contracts/profile';
import type { TReleaseNote } from '@stn/contracts/users';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { queryClient } from '../../lib/query-client.ts';

// What's new (spec 000 §2 Layout; issue 23): instead of a third-party release-announcements script, an
// agency admin sees the platform's release notes published since the newest one it has seen, once each:
// "Got it" marks them seen. Not while someone else is looking through the admin's eyes (impersonation).

const KEY = ['release-notes', 'unread'] as const;

export function WhatsNew({ user, impersonating }: { user: TUser; impersonating: boolean }) {
  const { t } = useTranslation();
  const enabled = userCan(user, 'whatsNew.view') && !impersonating;
  const unread = useQuery({
    queryKey: KEY,
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () =>
      (await api<{ data: TReleaseNote[] }>('/v1/release-notes/unread', { silent: true })).data,
  });
  const read = useMutation({
    mutationFn: (upTo: string) =>
      api('/v1/release-notes/read', { method: 'POST', body: { up_to: upTo }, silent: true }),
    onSettled: () => queryClient.setQueryData(KEY, []),
  });
  const notes = unread.data ?? [];
  const newest = notes[0];
  if (!enabled || !newest) return null;
  // A card above the screen, not a modal: it never stands between the admin and the screen.
  return (
    <Paper
      withBorder
      p="md"
      mb="md"
      radius="md"
      data-testid="whats-new"
      role="region"
      aria-label={t('layout.whats_new.title')}
    >
      <Group justify="space-between" align="flex-start" mb="xs">
        <Title order={4}>{t('layout.whats_new.title')}</Title>
        <Button
          size="xs"
          onClick={() => read.mutate(newest.published_at)}
          loading={read.isPending}
          data-testid="whats-new-ok"
        >
          {t('layout.whats_new.got_it')}
        </Button>
      </Group>
      <ScrollArea.Autosize mah={240}>
        <Stack gap="sm">
          {notes.map((note) => (
            <Stack key={note.id} gap={2} data-testid="whats-new-note">
              <Text fw={600}>{note.title}</Text>
              <Text size="xs" c="dimmed">
                {formatDate(note.published_at, 'long')}
              </Text>
              {/* Written by platform admins only; shown as text, never as HTML. */}
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {note.content}
              </Text>
            </Stack>
          ))}
        </Stack>
      </ScrollArea.Autosize>
      <Anchor component={Link} to="/release-notes" size="sm" mt="xs" display="inline-block">
        {t('layout.whats_new.more')}
      </Anchor>
    </Paper>
  );
}
