import {
  Alert,
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  NativeSelect,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import {
  ACTION_KINDS,
  REENTRY_RULES,
  type TAutomation,
  type TAutomationProblem,
} from '@stn/contracts/automations';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { toastError } from '../../lib/toast.ts';
import { useAutomation, useBlockCounts, useSaveAutomation } from './api/automations.ts';
import { Canvas } from './canvas.tsx';
import {
  addBlock,
  type Draft,
  draftOf,
  emptyDraft,
  problemsFromErrors,
  problemsOf,
  requestOf,
  TRIGGER_NODE,
} from './graph.ts';
import { problemText } from './problem-text.ts';
import { RunsPanel } from './runs-panel.tsx';
import { SidePanel } from './side-panel.tsx';

/**
 * business.automation.create and .edit (automation/:id): the canvas with the trigger and the blocks, a
 * palette of the 12 block kinds, the picked node's form beside it; Save keeps a draft as it is, Activate
 * runs the contracts' check first and shows every problem on its block. `?view=runs` opens its runs.
 */
export default function AutomationEditorPage() {
  const id = Number(useParams().id ?? 0);
  const automation = useAutomation(id);
  if (!id) return <Editor key="new" automation={null} />;
  if (automation.isError)
    return <LoadFailed message={automation.error.message} testId="automation-load-error" />;
  if (!automation.data) return <Loading />;
  return <Editor key={id} automation={automation.data} />;
}

function Editor({ automation }: { automation: TAutomation | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const id = automation?.id ?? 0;
  const [draft, setDraft] = useState<Draft>(() => (automation ? draftOf(automation) : emptyDraft()));
  const [active, setActive] = useState(automation?.active ?? false);
  const [selected, setSelected] = useState<string | null>(TRIGGER_NODE);
  // Problems show once an activation was asked (then they follow the edits live), and a refused save's.
  const [showProblems, setShowProblems] = useState(false);
  const [serverProblems, setServerProblems] = useState<TAutomationProblem[]>([]);
  const save = useSaveAutomation();
  const counts = useBlockCounts(id);
  const [pending, setPending] = useState<'draft' | 'active' | null>(null);

  const change = useCallback((update: (d: Draft) => Draft) => {
    setDraft(update);
    setServerProblems((shown) => (shown.length ? [] : shown));
  }, []);
  const live = showProblems ? problemsOf(draft) : [];
  const problems = [
    ...live,
    ...serverProblems.filter((s) => !live.some((l) => l.block_id === s.block_id && l.field === s.field)),
  ];
  const nameProblem = problems.find((p) => p.field === 'name' && p.block_id === null);

  const submit = (activate: boolean) => {
    const found = problemsOf(draft);
    const nameMissing = found.some((p) => p.field === 'name');
    if ((activate && found.length > 0) || nameMissing) {
      setShowProblems(true);
      const first = found.find((p) => p.block_id)?.block_id;
      if (activate && first) setSelected(first);
      return;
    }
    setPending(activate ? 'active' : 'draft');
    save.mutate(
      { id: id || null, body: requestOf(draft, activate) },
      {
        onSuccess: (res) => {
          setServerProblems([]);
          setActive(res.data.active);
          if (!id) navigate(pathOf('business.automation.edit', { id: res.data.id }), { replace: true });
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'VALIDATION') {
            // Field errors go on their blocks; a refusal of the whole (the plan's limit) is listed as it is.
            const found = problemsFromErrors(err.body?.errors ?? {}, draft.blocks);
            setServerProblems(found.length ? found : [{ block_id: null, field: null, message: err.message }]);
            setShowProblems(true);
          } else toastError(err.message);
        },
        onSettled: () => setPending(null),
      },
    );
  };

  const view = params.get('view') === 'runs' && id ? 'runs' : 'flow';
  // What the canvas and the side panel both show and change.
  const editing = { draft, onChange: change, selected, onSelect: setSelected, problems };
  return (
    <Stack>
      <div>
        <Anchor component={Link} to={pathOf('business.automation')} size="sm">
          {t('business.automations.back')}
        </Anchor>
        <Group justify="space-between" align="flex-end">
          <Group gap="sm">
            <Title order={2} data-testid="page-title">
              {id ? t('business.automations.edit_title') : t('business.automations.add')}
            </Title>
            {id > 0 && (
              <Badge color={active ? 'green' : 'gray'} variant="light" data-testid="automation-status">
                {active ? t('business.automations.active') : t('business.automations.inactive')}
              </Badge>
            )}
          </Group>
          <Group>
            <Button
              variant="light"
              onClick={() => submit(active)}
              loading={pending === (active ? 'active' : 'draft')}
              data-testid="automation-save"
            >
              {active ? t('common.save') : t('business.automations.save_draft')}
            </Button>
            {active ? (
              <Button
                variant="default"
                onClick={() => submit(false)}
                loading={pending === 'draft'}
                data-testid="automation-deactivate"
              >
                {t('business.automations.deactivate')}
              </Button>
            ) : (
              <Button
                onClick={() => submit(true)}
                loading={pending === 'active'}
                data-testid="automation-activate"
              >
                {t('business.automations.activate')}
              </Button>
            )}
          </Group>
        </Group>
      </div>
      <Group align="flex-start" grow>
        <TextInput
          label={t('business.automations.name')}
          required
          value={draft.name}
          onChange={(e) => {
            const name = e.currentTarget.value;
            change((d) => ({ ...d, name }));
          }}
          error={nameProblem ? problemText(nameProblem) : null}
          data-testid="automation-name"
        />
        <NativeSelect
          label={t('business.automations.reentry')}
          data={REENTRY_RULES.map((r) => ({ value: r, label: t(`business.automations.reentries.${r}`) }))}
          value={draft.reentry}
          onChange={(e) => {
            const reentry = e.currentTarget.value as Draft['reentry'];
            change((d) => ({ ...d, reentry }));
          }}
          data-testid="automation-reentry"
        />
      </Group>
      {problems.length > 0 && (
        <Alert color="red" title={t('business.automations.problems_title')} data-testid="automation-problems">
          <Stack gap={2}>
            {problems.map((p, i) => (
              <UnstyledButton
                key={`${p.block_id}|${p.field}|${p.message}`}
                onClick={() => setSelected(p.block_id ?? (p.field === 'name' ? selected : TRIGGER_NODE))}
                data-testid={`problem-${i}`}
                data-block={p.block_id ?? ''}
              >
                <Text size="sm">
                  {p.block_id ? `${p.block_id}: ` : ''}
                  {problemText(p)}
                </Text>
              </UnstyledButton>
            ))}
          </Stack>
        </Alert>
      )}
      <Tabs
        value={view}
        onChange={(v) => setParams(v === 'runs' ? { view: 'runs' } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="flow" data-testid="automation-tab-flow">
            {t('business.automations.flow')}
          </Tabs.Tab>
          <Tabs.Tab value="runs" disabled={!id} data-testid="automation-tab-runs">
            {t('business.automations.runs')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="flow" pt="md">
          <Grid gutter="md">
            <Grid.Col span={{ base: 12, md: 2 }}>
              <Palette
                onAdd={(kind) => {
                  const made = addBlock(draft, kind, selected);
                  change(() => made.draft);
                  setSelected(made.id);
                }}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Canvas {...editing} counts={id ? counts.data : undefined} />
              {id > 0 && (
                <Text size="xs" c="dimmed" mt={4}>
                  {t('business.automations.counts_legend')}
                </Text>
              )}
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <SidePanel {...editing} automationId={id} />
            </Grid.Col>
          </Grid>
        </Tabs.Panel>
        <Tabs.Panel value="runs" pt="md">
          {id > 0 && <RunsPanel automationId={id} blocks={draft.blocks} />}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** The 12 block kinds; a pick adds one after the picked node, joined to its first free output. */
function Palette({ onAdd }: { onAdd: (kind: (typeof ACTION_KINDS)[number]) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="automation-palette">
      <Text size="sm" fw={600}>
        {t('business.automations.palette')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('business.automations.palette_hint')}
      </Text>
      {ACTION_KINDS.map((kind) => (
        <Button
          key={kind}
          size="xs"
          variant="default"
          justify="flex-start"
          onClick={() => onAdd(kind)}
          data-testid={`palette-${kind}`}
          title={t(`business.automations.kind_hints.${kind}`)}
        >
          {t(`business.automations.kinds.${kind}`)}
        </Button>
      ))}
    </Stack>
  );
}
