import '@xyflow/react/dist/style.css';
import { Badge, Group, Paper, Text } from '@mantine/core';
import { ACTION_OUTPUTS, type TAutomationProblem } from '@stn/contracts/automations';
import {
  Background,
  Controls,
  type Edge,
  type EdgeChange,
  Handle,
  MarkerType,
  type Node,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
  type ReactFlowInstance,
} from '@xyflow/react';
import { memo, useEffect, useMemo, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TBlockCount } from './api/automations.ts';
import { connect, type Draft, moveNode, problemsAt, removeBlock, TRIGGER_NODE } from './graph.ts';
import { blockSummary, triggerSummary } from './summaries.ts';

// The editor's canvas (React Flow): the trigger and the blocks as nodes, each output a handle, each
// output's target an edge. Nodes and edges are drawn from the draft; every change the canvas makes
// (moving, connecting, deleting, selecting) goes back to the draft through `onChange`.

type NodeData = {
  title: string;
  summary: string;
  outputs: readonly string[];
  problems: number;
  counts?: { at: number; passed: number };
  trigger?: boolean;
};
type FlowNode = Node<NodeData>;

const OUTPUT_COLORS: Record<string, string> = { yes: '#2f9e44', no: '#e03131', no_answer: '#e8590c' };

const FlowNodeView = memo(function FlowNodeView({ id, data, selected }: NodeProps<FlowNode>) {
  const { t } = useTranslation();
  const testId = data.trigger ? 'block-trigger' : `block-${id}`;
  return (
    <Paper
      withBorder
      shadow={selected ? 'md' : 'xs'}
      p="xs"
      radius="md"
      w={220}
      data-testid={testId}
      data-problem={data.problems > 0 ? 'true' : 'false'}
      data-selected={selected ? 'true' : 'false'}
      style={{
        borderColor: data.problems > 0 ? '#e03131' : selected ? '#1a76d2' : undefined,
        borderWidth: data.problems > 0 || selected ? 2 : 1,
        background: data.trigger ? '#e7f5ff' : undefined,
      }}
    >
      {!data.trigger && (
        <Handle type="target" position={Position.Top} data-testid={`handle-${id}-in`} id="in" />
      )}
      <Group justify="space-between" gap={4} wrap="nowrap">
        <Text size="sm" fw={600} truncate>
          {data.title}
        </Text>
        {data.counts && (
          <Badge
            size="xs"
            variant="light"
            data-testid={`${testId}-count`}
            data-at={data.counts.at}
            title={t('business.automations.counts_hint', data.counts)}
          >
            {data.counts.at} / {data.counts.passed}
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed" lineClamp={2}>
        {data.summary}
      </Text>
      {data.problems > 0 && (
        <Text size="xs" c="red" data-testid={`${testId}-problems`}>
          {t('business.automations.problems_count', { count: data.problems })}
        </Text>
      )}
      {data.outputs.length > 1 && (
        <Group justify="space-around" gap={0} mt={4}>
          {data.outputs.map((o) => (
            <Text
              key={o}
              size="xs"
              c={OUTPUT_COLORS[o] ? undefined : 'dimmed'}
              style={{ color: OUTPUT_COLORS[o] }}
            >
              {t(`business.automations.outputs.${o}`)}
            </Text>
          ))}
        </Group>
      )}
      {data.outputs.map((o, i) => (
        <Handle
          key={o}
          type="source"
          position={Position.Bottom}
          id={o}
          data-testid={`handle-${data.trigger ? 'trigger' : id}-${o}`}
          style={{
            left: `${((i + 1) / (data.outputs.length + 1)) * 100}%`,
            background: OUTPUT_COLORS[o],
            width: 10,
            height: 10,
          }}
        />
      ))}
    </Paper>
  );
});

const NODE_TYPES = { flow: FlowNodeView };

export function Canvas(props: {
  draft: Draft;
  onChange: (update: (d: Draft) => Draft) => void;
  selected: string | null;
  onSelect: (id: string | null) => void;
  /** Problems shown on their blocks (after an activation was asked). */
  problems: readonly TAutomationProblem[];
  counts?: readonly TBlockCount[];
}) {
  const { t } = useTranslation();
  const { draft, onChange, onSelect } = props;
  // React Flow measures each node once drawn; the sizes are kept here, the rest comes from the draft.
  const measured = useRef(new Map<string, { width: number; height: number }>());
  const [version, remeasured] = useReducer((n: number) => n + 1, 0);
  const [selectedEdge, setSelectedEdge] = useReducer((_: string | null, id: string | null) => id, null);
  // A block added or removed: the whole flow is brought into view again (once the new node is measured).
  const flow = useRef<ReactFlowInstance<FlowNode, Edge> | null>(null);
  const blockCount = draft.blocks.length;
  useEffect(() => {
    if (blockCount === 0) return;
    const frame = requestAnimationFrame(() =>
      requestAnimationFrame(() => void flow.current?.fitView({ maxZoom: 1, duration: 0 })),
    );
    return () => cancelAnimationFrame(frame);
  }, [blockCount]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` marks new measurements in the ref.
  const nodes = useMemo<FlowNode[]>(() => {
    const counts = new Map((props.counts ?? []).map((c) => [c.block_id, c]));
    const trigger: FlowNode = {
      id: TRIGGER_NODE,
      type: 'flow',
      position: draft.trigger.position,
      deletable: false,
      selected: props.selected === TRIGGER_NODE,
      measured: measured.current.get(TRIGGER_NODE),
      data: {
        trigger: true,
        title: t(`business.automations.triggers.${draft.trigger.kind}`),
        summary: triggerSummary(draft, t),
        outputs: ['start'],
        problems: problemsAt(props.problems, TRIGGER_NODE).length,
      },
    };
    return [
      trigger,
      ...draft.blocks.map((b) => {
        const c = counts.get(b.id);
        return {
          id: b.id,
          type: 'flow',
          position: b.position,
          selected: props.selected === b.id,
          measured: measured.current.get(b.id),
          data: {
            title: t(`business.automations.kinds.${b.type}`),
            summary: blockSummary(b, t),
            outputs: ACTION_OUTPUTS[b.type],
            problems: problemsAt(props.problems, b.id).length,
            counts: props.counts ? { at: c?.at ?? 0, passed: c?.passed ?? 0 } : undefined,
          },
        } satisfies FlowNode;
      }),
    ];
  }, [draft, props.selected, props.problems, props.counts, t, version]);

  const edges = useMemo<Edge[]>(() => {
    const list: Edge[] = [];
    const edge = (from: string, output: string, to: string, label?: string): Edge => {
      const id = `e-${from}-${output}`;
      return {
        id,
        source: from,
        sourceHandle: output,
        target: to,
        targetHandle: 'in',
        label,
        selected: selectedEdge === id,
        markerEnd: { type: MarkerType.ArrowClosed },
        style: OUTPUT_COLORS[output] ? { stroke: OUTPUT_COLORS[output] } : undefined,
        data: { from, output },
      };
    };
    if (draft.trigger.start) list.push(edge(TRIGGER_NODE, 'start', draft.trigger.start));
    for (const b of draft.blocks)
      for (const [output, to] of Object.entries(b.outputs))
        if (to && draft.blocks.some((x) => x.id === to))
          list.push(
            edge(
              b.id,
              output,
              to,
              ACTION_OUTPUTS[b.type].length > 1 ? t(`business.automations.outputs.${output}`) : undefined,
            ),
          );
    return list;
  }, [draft, selectedEdge, t]);

  const onNodesChange = (changes: NodeChange<FlowNode>[]) => {
    let sized = false;
    for (const c of changes) {
      if (c.type === 'dimensions' && c.dimensions) {
        measured.current.set(c.id, c.dimensions);
        sized = true;
      } else if (c.type === 'position' && c.position) {
        const position = c.position;
        onChange((d) => moveNode(d, c.id, position));
      } else if (c.type === 'select') {
        if (c.selected) onSelect(c.id);
      } else if (c.type === 'remove' && c.id !== TRIGGER_NODE) {
        onChange((d) => removeBlock(d, c.id));
        onSelect(null);
      }
    }
    if (sized) remeasured();
  };

  const onEdgesChange = (changes: EdgeChange<Edge>[]) => {
    for (const c of changes) {
      if (c.type === 'select') setSelectedEdge(c.selected ? c.id : null);
      else if (c.type === 'remove') {
        const e = edges.find((x) => x.id === c.id);
        const data = e?.data as { from: string; output: string } | undefined;
        if (data) onChange((d) => connect(d, data.from, data.output, null));
      }
    }
  };

  return (
    <div
      style={{ height: 620, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
      data-testid="automation-canvas"
    >
      <ReactFlow<FlowNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={(c) => {
          if (c.source && c.target && c.source !== c.target)
            onChange((d) => connect(d, c.source, c.sourceHandle ?? 'next', c.target));
        }}
        onPaneClick={() => onSelect(null)}
        onInit={(instance) => {
          flow.current = instance;
        }}
        deleteKeyCode={['Backspace', 'Delete']}
        fitView
        fitViewOptions={{ maxZoom: 1 }}
        minZoom={0.3}
      >
        <Background gap={16} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
