import {
  Alert,
  Center,
  Checkbox,
  Group,
  Loader,
  Pagination,
  Select,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { TABLE_PAGE_SIZE, TABLE_PAGE_SIZES } from '@stn/contracts/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { NotAllowed, useReportForbidden } from '../not-allowed.tsx';

// Spec 000 §9: the data table pages at 5 by default, page sizes 5, 6 and 10, search debounced 250 ms,
// two page links each side of the current one.
export const PAGE_SIZES = TABLE_PAGE_SIZES.map(String);
export const SEARCH_DEBOUNCE_MS = 250;

export type Column<T> = {
  key: string;
  title: string;
  render: (row: T) => ReactNode;
  width?: number | string;
};

type RowId = number | string;

/** Bulk selection: a checkbox column over rows the list keeps in `useSelection`. */
export type Selection<T> = {
  selected: readonly RowId[];
  toggle: (id: RowId, on: boolean) => void;
  /** A row that cannot be picked (the main agency) shows a disabled box. */
  disabled?: (row: T) => boolean;
  label: (row: T) => string;
  testId: (row: T) => string;
};

type ListAnswer<T> = { data: T[]; meta: { total: number; page: number; perPage: number } };

/** The ids picked for a bulk action; `drop` takes done ones out (after the action succeeded). */
export function useSelection<Id extends RowId = number>() {
  const [selected, setSelected] = useState<Id[]>([]);
  return {
    selected,
    toggle: (id: RowId, on: boolean) =>
      setSelected((cur) => (on ? [...new Set([...cur, id as Id])] : cur.filter((x) => x !== id))),
    clear: () => setSelected([]),
    drop: (ids: readonly Id[]) => setSelected((cur) => cur.filter((x) => !ids.includes(x))),
  };
}

/**
 * The one list: a server-paged, searchable table over a list call answering { data, meta.total }, with its
 * loading, empty and error states and optional bulk selection. `queryKey` is the resource's key (its
 * mutations invalidate it); `filters` are extra query parameters (status tabs and the like).
 */
export function DataTable<T extends { id: RowId }>(props: {
  path: string;
  queryKey: readonly unknown[];
  columns: Column<T>[];
  filters?: Record<string, string | number | undefined>;
  actions?: (row: T) => ReactNode;
  selection?: Selection<T>;
  /** What an empty list shows: a text, or a call to action of its own (given the search, when it is one). */
  empty?: ReactNode | ((keyword: string) => ReactNode);
  testId?: string;
  /** Refresh while shown, for lists that change by themselves (calls in progress); off by default. */
  refetchInterval?: number;
  /** A wide list scrolls sideways below this width (px) instead of squeezing its columns on a phone. */
  minWidth?: number;
  /** The page size it opens with (one of 5, 6, 10): 5 unless a screen's spec says otherwise. */
  perPage?: (typeof TABLE_PAGE_SIZES)[number];
}) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(String(props.perPage ?? TABLE_PAGE_SIZE));
  // New filters start again at page 1: page 3 of the old rows may not exist among the new ones.
  const filterKey = JSON.stringify(props.filters ?? {});
  const [seenFilters, setSeenFilters] = useState(filterKey);
  if (seenFilters !== filterKey) {
    setSeenFilters(filterKey);
    setPage(1);
  }
  const query = useQuery({
    queryKey: [...props.queryKey, { ...props.filters, keyword: debounced, page, perPage }],
    queryFn: () =>
      api<ListAnswer<T>>(props.path, {
        query: { ...props.filters, keyword: debounced, page, perPage },
        silent: true,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: props.refetchInterval,
  });
  // A 403 is not a load failure: the screen shows the one not-allowed state (components/not-allowed.tsx).
  const forbidden = useReportForbidden(query.error);
  const total = query.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / Number(perPage)));
  const selection = props.selection;
  const columns: Column<T>[] = selection
    ? [
        {
          key: 'select',
          title: '',
          width: 40,
          render: (row) => (
            <Checkbox
              aria-label={selection.label(row)}
              checked={selection.selected.includes(row.id)}
              disabled={selection.disabled?.(row)}
              onChange={(e) => selection.toggle(row.id, e.currentTarget.checked)}
              data-testid={selection.testId(row)}
            />
          ),
        },
        ...props.columns,
      ]
    : props.columns;
  if (forbidden) return <NotAllowed />;
  return (
    <div data-testid={props.testId}>
      <Group justify="space-between" mb="sm">
        <TextInput
          placeholder={t('common.search')}
          value={keyword}
          onChange={(e) => {
            setKeyword(e.currentTarget.value);
            setPage(1);
          }}
          data-testid="table-search"
        />
        <Select
          w={90}
          data={PAGE_SIZES}
          value={perPage}
          onChange={(v) => {
            setPerPage(v ?? String(props.perPage ?? TABLE_PAGE_SIZE));
            setPage(1);
          }}
          allowDeselect={false}
          aria-label="per page"
        />
      </Group>
      {query.isPending ? (
        <Center p="lg">
          <Loader size="sm" />
        </Center>
      ) : query.isError && !query.data ? (
        <Alert color="red" data-testid="table-error">
          {t('common.load_failed')}
        </Alert>
      ) : (
        <Table.ScrollContainer minWidth={props.minWidth ?? 0} type="native">
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.key} w={c.width}>
                    {c.title}
                  </Table.Th>
                ))}
                {props.actions && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(query.data?.data ?? []).map((row) => (
                <Table.Tr key={row.id} data-testid={`row-${row.id}`}>
                  {columns.map((c) => (
                    <Table.Td key={c.key}>{c.render(row)}</Table.Td>
                  ))}
                  {props.actions && <Table.Td>{props.actions(row)}</Table.Td>}
                </Table.Tr>
              ))}
              {query.data && query.data.data.length === 0 && (
                <EmptyRow
                  colSpan={columns.length + (props.actions ? 1 : 0)}
                  text={
                    typeof props.empty === 'function'
                      ? props.empty(debounced)
                      : (props.empty ?? t('common.empty'))
                  }
                />
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="space-between" mt="sm">
        <Text size="sm" c="dimmed">
          {t('common.total', { count: total })}
        </Text>
        {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} siblings={2} />}
      </Group>
    </div>
  );
}

/** A table's one row saying there is nothing to show. */
export function EmptyRow({ colSpan, text }: { colSpan: number; text: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan}>
        {typeof text === 'string' ? (
          <Text c="dimmed" ta="center">
            {text}
          </Text>
        ) : (
          text
        )}
      </Table.Td>
    </Table.Tr>
  );
}
