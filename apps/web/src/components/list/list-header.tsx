import { Button, Group, Title } from '@mantine/core';
import { Link } from 'react-router';

/** A list screen's title with its add button (a link to the create route). */
export function ListHeader(props: { title: string; add?: { label: string; to: string; testId: string } }) {
  return (
    <Group justify="space-between">
      <Title order={2} data-testid="page-title">
        {props.title}
      </Title>
      {props.add && (
        <Button component={Link} to={props.add.to} data-testid={props.add.testId}>
          {props.add.label}
        </Button>
      )}
    </Group>
  );
}
