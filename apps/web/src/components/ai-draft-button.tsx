import { Button, Group, Modal, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { AI_DRAFT_TONES, type TAiDraftRequest, type TAiDraftResponse } from '@stn/contracts/ai';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api-client.ts';
import { useAuth } from '../lib/auth-store.ts';

type Tone = NonNullable<TAiDraftRequest['tone']>;

// AI drafts (spec 001 POST /v1/businesses/generate-ai-content, ADR 086), shared by the template editor, the
// inbox's text composer and the broadcast editor: refusals (AI off, plan, monthly limit) are toasted by the
// API client.
export const AI_DRAFT_PATH = '/v1/businesses/generate-ai-content';

function useAiDraft() {
  return useMutation({
    mutationFn: async (body: TAiDraftRequest) =>
      (await api<TAiDraftResponse>(AI_DRAFT_PATH, { method: 'POST', body })).data.draft,
  });
}

/**
 * "Draft with AI" beside a message field: asks for a prompt and hands the draft to `onDraft`, for the user
 * to edit. Shown only when the business has AI drafts switched on (its plan may still refuse: a toast).
 */
export function AiDraftButton({
  kind,
  onDraft,
  inline = false,
}: {
  kind: TAiDraftRequest['kind'];
  onDraft: (draft: string) => void;
  /** Only the button (for a toolbar), not a right-aligned row of its own. */
  inline?: boolean;
}) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [opened, setOpened] = useState(false);
  const [prompt, setPrompt] = useState('');
  const [tone, setTone] = useState<Tone>('friendly');
  const draft = useAiDraft();
  if (!user?.business?.ai_enabled) return null;
  const close = () => setOpened(false);
  const open = (
    <Button variant="light" size="xs" onClick={() => setOpened(true)} data-testid="ai-draft-open">
      {t('business.templates.ai.draft_button')}
    </Button>
  );
  const write = async () => {
    const text = await draft.mutateAsync({ kind, prompt, tone }).catch(() => null);
    if (text === null) return;
    onDraft(text);
    close();
  };
  return (
    <>
      {inline ? open : <Group justify="flex-end">{open}</Group>}
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
