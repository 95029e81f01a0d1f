import { ActionIcon, Button, Group, Menu, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export type RowAction = {
  label: string;
  /** A link (edit) or a handler (delete, archive). */
  to?: string;
  onClick?: () => void;
  color?: string;
  testId?: string;
  hidden?: boolean;
  /** A line above the item (a destructive action set apart). */
  divider?: boolean;
  /** Why the action may not be used now (shown, the action disabled), or null. */
  lock?: string | null;
};

/** A menu action's label, with the reason it is disabled under it when it is. */
export function ActionLabel({ label, lock }: { label: string; lock?: string | null }) {
  if (!lock) return label;
  return (
    <>
      {label}
      <Text size="xs" c="dimmed" maw={260}>
        {lock}
      </Text>
    </>
  );
}

/** A row's actions as small buttons (edit, delete). */
export function RowButtons({ actions }: { actions: RowAction[] }) {
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      {actions
        .filter((a) => !a.hidden)
        .map((a) =>
          a.to ? (
            <Button key={a.label} size="xs" variant="light" component={Link} to={a.to} data-testid={a.testId}>
              {a.label}
            </Button>
          ) : (
            <Button
              key={a.label}
              size="xs"
              variant="light"
              color={a.color}
              onClick={a.onClick}
              disabled={Boolean(a.lock)}
              title={a.lock ?? undefined}
              data-testid={a.testId}
            >
              {a.label}
            </Button>
          ),
        )}
    </Group>
  );
}

/** A row's actions behind a ⋮ menu. */
export function RowMenu(props: { label: string; testId: string; actions: RowAction[] }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={props.label} data-testid={props.testId}>
          ⋮
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {props.actions
          .filter((a) => !a.hidden)

          .flatMap((a) => [
            a.divider ? <Menu.Divider key={`divider-${a.label}`} /> : null,
            a.to ? (
              <Menu.Item key={a.label} component={Link} to={a.to} data-testid={a.testId}>
                {a.label}
              </Menu.Item>
            ) : (
              <Menu.Item
                key={a.label}
                color={a.color}
                onClick={a.onClick}
                disabled={Boolean(a.lock)}
                data-testid={a.testId}
              >
                <ActionLabel label={a.label} lock={a.lock} />
              </Menu.Item>
            ),
          ])}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * A business list's usual pair: edit (a link or a handler) and delete (red; the handler asks first), with
 * the test ids `<name>-edit-<id>` and `<name>-delete-<id>`.
 */
export function EditDeleteButtons(props: {
  name: string;
  id: number;
  edit: string | (() => void);
  onDelete: () => void;
  hideDelete?: boolean;
}) {
  const { t } = useTranslation();
  const edit = typeof props.edit === 'string' ? { to: props.edit } : { onClick: props.edit };
  return (
    <RowButtons
      actions={[
        { label: t('business.common.edit'), ...edit, testId: `${props.name}-edit-${props.id}` },
        {
          label: t('business.common.delete'),
          color: 'red',
          onClick: props.onDelete,
          testId: `${props.name}-delete-${props.id}`,
          hidden: props.hideDelete,
        },
      ]}
    />
  );
}
