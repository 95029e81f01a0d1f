import {
  Center,
  Drawer,
  Group,
  Loader,
  Pagination,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { TImpersonableUser } from '@stn/contracts/auth';
import { LIST_PAGE_SIZE } from '@stn/contracts/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { textValue } from '../../lib/text-value.ts';
import { SEARCH_DEBOUNCE_MS } from './layout-rules.ts';

type UsersAnswer = { data: TImpersonableUser[]; meta: { total: number; page: number; perPage: number } };

type Props = {
  opened: boolean;
  onClose: () => void;
  onPick: (id: number) => void;
  /** Part of the query key, so one user's list is never shown to another. */
  userId: number;
};

function UserRow({ user, onPick }: { user: TImpersonableUser; onPick: (id: number) => void }) {
  return (
    <UnstyledButton
      onClick={() => onPick(user.id)}
      data-testid={`impersonate-user-${user.id}`}
      p="sm"
      style={{ borderRadius: 'var(--mantine-radius-sm)', border: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Group gap={6} wrap="nowrap">
        <Text size="xs" c="dimmed">
          #{user.id}
        </Text>
        <Text size="sm" fw={600} truncate>
          {user.name || user.email}
        </Text>
      </Group>
      <Text size="sm" truncate>
        {user.email}
      </Text>
      {user.subdomain_url && (
        <Text size="xs" c="dimmed" truncate>
          {user.subdomain_url}
        </Text>
      )}
      {user.domain && (
        <Text size="xs" c="dimmed" truncate>
          {user.domain}
        </Text>
      )}
    </UnstyledButton>
  );
}

/**
 * Right-side impersonation drawer (spec 000 §2): a search box (debounced 250 ms) and a vertical list of
 * the users the caller may impersonate (GET /v1/impersonate/users), 10 a page. Closes on outside click
 * (Mantine's default), on Escape, on picking a user and on stop.
 */
export function ImpersonationDrawer({ opened, onClose, onPick, userId }: Props) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword.trim(), SEARCH_DEBOUNCE_MS);
  // The page belongs to a search: a new search starts again at page 1.
  const [paging, setPaging] = useState({ keyword: '', page: 1 });
  const page = paging.keyword === debounced ? paging.page : 1;
  const setPage = (p: number) => setPaging({ keyword: debounced, page: p });

  const list = useQuery({
    queryKey: ['impersonate-users', userId, debounced, page],
    queryFn: () =>
      api<UsersAnswer>('/v1/impersonate/users', {
        query: { keyword: debounced || undefined, page, perPage: LIST_PAGE_SIZE },
      }),
    enabled: opened,
    placeholderData: keepPreviousData,
  });
  const users = list.data?.data ?? [];
  const total = list.data?.meta.total ?? 0;
  const pages = Math.ceil(total / LIST_PAGE_SIZE);

  return (
    <Drawer.Root opened={opened} onClose={onClose} position="right" size="md">
      <Drawer.Overlay />
      <Drawer.Content data-testid="impersonation-drawer">
        <Drawer.Header>
          <Drawer.Title fw={600}>{t('layout.impersonation.title')}</Drawer.Title>
          <Drawer.CloseButton aria-label={t('layout.close')} />
        </Drawer.Header>
        <Drawer.Body>
          <TextInput
            {...textValue(keyword, setKeyword)}
            placeholder={t('layout.impersonation.search')}
            aria-label={t('layout.impersonation.search')}
            data-testid="impersonation-search"
            mb="md"
            rightSection={list.isFetching ? <Loader size="xs" /> : null}
          />
          {list.isPending && opened ? (
            <Center py="xl">
              <Loader size="sm" aria-label={t('layout.loading')} />
            </Center>
          ) : list.isError ? (
            <Text c="red" size="sm" data-testid="impersonation-error">
              {t('layout.impersonation.error')}
            </Text>
          ) : users.length === 0 ? (
            <Text c="dimmed" size="sm" data-testid="impersonation-empty">
              {t('layout.impersonation.empty')}
            </Text>
          ) : (
            <Stack gap="xs" data-testid="impersonation-list">
              {users.map((u) => (
                <UserRow key={u.id} user={u} onPick={onPick} />
              ))}
            </Stack>
          )}
          {pages > 1 && (
            <Group justify="center" mt="md">
              <Pagination total={pages} value={page} onChange={setPage} size="sm" siblings={1} />
            </Group>
          )}
        </Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}
