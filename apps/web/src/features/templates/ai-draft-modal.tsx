import { Button, Group, Modal, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { AI_DRAFT_TONES, type TAiDraftRequest } from '@stn/contracts/ai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../lib/auth-store.ts';
import { useAiDraft } from './api/ai-draft.ts';

type Tone = NonNullable<TAiDraftRequest['tone']>;

/**
 * "Draft with AI" beside a message field: asks for a prompt and hands the draft to `onDraft`, for the user
 * to edit. Shown only when the business has AI drafts switched on (its plan may still refuse: a toast).
 */
export function AiDraftButton({
  kind,
  onDraft,
}: {
  kind: TAiDraftRequest['kind'];
  onDraft: (draft: string) => void;
}) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [opened, setOpened] = useState(false);
  const [prompt, setPrompt] = useState('');
  const [tone, setTone] = useState<Tone>('friendly');
  const draft = useAiDraft();
  if (!user?.business?.ai_enabled) return null;
  const close = () => setOpened(false);
  const write = async () => {
    const text = await draft.mutateAsync({ kind, prompt, tone }).catch(() => null);
    if (text === null) return;
    onDraft(text);
    close();
  };
  return (
    <>
      <Group justify="flex-end">
        <Button variant="light" size="xs" onClick={() => setOpened(true)} data-testid="ai-draft-open">
          {t('business.templates.ai.draft_button')}
        </Button>
      </Group>
      <Modal opened={opened} onClose={close} title={t('business.templates.ai.title')}>
        <Stack>
          <Textarea
            label={t('business.templates.ai.prompt')}
            description={t('business.templates.ai.prompt_hint')}
            value={prompt}
            onChange={(e) => setPrompt(e.currentTarget.value)}
            maxLength={1000}
            minRows={3}
            autosize
            data-autofocus
            data-testid="ai-draft-prompt"
          />
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('business.templates.ai.tone')}
            </Text>
            <SegmentedControl
              value={tone}
              onChange={(v) => setTone(v as Tone)}
              data={AI_DRAFT_TONES.map((v) => ({ value: v, label: t(`business.templates.ai.tones.${v}`) }))}
              data-testid="ai-draft-tone"
            />
          </div>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('business.templates.ai.cancel')}
            </Button>
            <Button
              onClick={write}
              loading={draft.isPending}
              disabled={prompt.trim() === ''}
              data-testid="ai-draft-submit"
            >
              {t('business.templates.ai.generate')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
