import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

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
        <CopyButton value={props.code}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              onClick={() => {
                // A browser without the clipboard API (plain http) still lets the person select the code.
                if (navigator.clipboard) copy();
              }}
              data-testid={`${props.testId}-copy`}
            >
              {copied ? props.copied : props.copy}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
