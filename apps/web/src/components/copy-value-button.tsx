import { Button, type ButtonProps, CopyButton } from '@mantine/core';

/**
 * A button that copies `value`, its label turning to `copied` for a moment. A browser without the clipboard
 * API (plain http) does nothing on click: the person can still select the value shown beside it.
 */
export function CopyValueButton(props: {
  value: string;
  copy: string;
  copied: string;
  size?: ButtonProps['size'];
  testId?: string;
}) {
  return (
    <CopyButton value={props.value}>
      {({ copied, copy }) => (
        <Button
          size={props.size}
          variant={copied ? 'filled' : 'light'}
          color={copied ? 'teal' : undefined}
          onClick={() => {
            if (navigator.clipboard) copy();
          }}
          data-testid={props.testId}
        >
          {copied ? props.copied : props.copy}
        </Button>
      )}
    </CopyButton>
  );
}
