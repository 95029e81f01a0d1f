import { Code, Group, Stack, Text } from '@mantine/core';
import { CopyValueButton } from './copy-value-button.tsx';

/**
 * A code to paste elsewhere (an install's or an embedded form's embed code) with a Copy button. Test ids:
 * `{testId}-code` and `{testId}-copy`.
 */
export function CodeSnippet(props: {
  code: string;
  hint: string;
  copy: string;
  copied: string;
  testId: string;
}) {
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {props.hint}
      </Text>
      <Code block data-testid={`${props.testId}-code`}>
        {props.code}
      </Code>
      <Group justify="flex-end">
        <CopyValueButton
          value={props.code}
          copy={props.copy}
          copied={props.copied}
          testId={`${props.testId}-copy`}
        />
      </Group>
    </Stack>
  );
}
