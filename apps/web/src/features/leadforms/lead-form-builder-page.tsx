// business.leadForms.create and .edit (leadForms/:id/edit): the lead form builder (issue 21). The draft is
// the request as it will be sent (builder-model.ts); every problem, the browser's check (the contracts'
// checkLeadForm and the request's schema) or a refused save's 422, is keyed by its path and shown at its
// field, and the builder switches to the step and the language of the first one. Nothing typed is lost.
//
// Test ids (steps <s>, questions <i>, options <j> count from 0; <lang> is en, es or br):
//   lf-name, lf-active, lf-languages, lf-lang-<lang> (the form's languages), lf-tab-<lang> (the language
//   the texts are edited and previewed in), lf-tags (tags for every submission), lf-save, lf-problems (the
//   list of problems; each lf-problem-<n> goes to its field), lf-save-bottom (the second Save), lf-steps (the form-wide problem line),
//   lf-step-tab-<s>, lf-add-step, lf-step-<s> (its editor), lf-step-<s>-title-<lang>, lf-step-<s>-up,
//   lf-step-<s>-down, lf-step-<s>-remove, lf-add-question-<s> (the type menu) and
//   lf-add-question-<s>-<type>, lf-q-<s>-<i> (a question's card), lf-q-<s>-<i>-type, -label-<lang>,
//   -placeholder-<lang>, -required, -multi (is_allow_multi_select), -map (map_to), -tag (a consent's tag),
//   -up, -down, -remove, lf-q-<s>-<i>-options, lf-add-option-<s>-<i>, lf-opt-<s>-<i>-<j>-label-<lang>,
//   lf-opt-<s>-<i>-<j>-tag, lf-opt-<s>-<i>-<j>-remove, lf-style-<Padding|MaxWidth|Roudness|BackgroundColor|
//   BorderColor|Color|ButtonColor|ButtonTextColor>, lf-text-<title|description|next|back|submit|thanks>-<lang>,
//   lf-preview (the preview panel), lf-preview-form (the rendered form; data-lang, data-step).
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Checkbox,
  ColorInput,
  Grid,
  Group,
  Menu,
  MultiSelect,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import {
  CONTACT_TARGETS,
  LEAD_LANGUAGES,
  LEAD_STYLING_DEFAULTS,
  LEAD_TEXT_DEFAULTS,
  LEAD_TEXT_KEYS,
  publicLeadForm,
  QUESTION_TYPES,
  type TLeadForm,
  type TLeadLanguage,
  type TLeadQuestion,
  type TLeadStyling,
} from '@stn/contracts/leadforms';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { confirmAction } from '../../components/list/confirm.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useTagOptions } from '../../lib/pickers.ts';
import { toastError, toastSuccess } from '../../lib/toast.ts';
import { useCustomFields, useLeadForm, useSaveLeadForm } from './api/leadforms.ts';
import {
  type Draft,
  draftOf,
  firstProblem,
  locate,
  move,
  newDraft,
  newOption,
  newQuestion,
  newStep,
  problemsOf,
  problemsUnder,
  retype,
  serverProblems,
  testIdOf,
  withLanguages,
} from './builder-model.ts';
import { LeadFormPreview } from './lead-form-preview.tsx';
import { problemText } from './problem-text.ts';

export default function LeadFormBuilderPage() {
  const id = Number(useParams().id ?? 0);
  const form = useLeadForm(id);
  if (!id) return <Builder key="new" form={null} />;
  if (form.isError) return <LoadFailed message={form.error.message} testId="lf-load-error" />;
  if (!form.data) return <Loading />;
  return <Builder key={id} form={form.data} />;
}

type Edit = (change: (d: Draft) => void, path?: string) => void;
/** What every part of the builder shares: the draft, its change, the language shown, the problems. */
type Ctx = {
  draft: Draft;
  edit: Edit;
  lang: TLeadLanguage;
  error: (path: string) => string | undefined;
  problems: Record<string, string>;
};

const STYLE_NUMBERS = [
  ['Padding', 0, 100],
  ['MaxWidth', 200, 1200],
  ['Roudness', 0, 50],
] as const;
const STYLE_COLORS = ['BackgroundColor', 'BorderColor', 'Color', 'ButtonColor', 'ButtonTextColor'] as const;

function Builder({ form }: { form: TLeadForm | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = form?.id ?? 0;
  const [draft, setDraft] = useState<Draft>(() => (form ? draftOf(form) : newDraft(['en'])));
  const [lang, setLang] = useState<TLeadLanguage>(() => draft.languages[0] ?? 'en');
  const [step, setStep] = useState(0);
  // The browser's problems show once a save was tried (then they follow the edits live); the server's
  // stay until their field is changed or the next save.
  const [checked, setChecked] = useState(false);
  const [server, setServer] = useState<Record<string, string>>({});
  const save = useSaveLeadForm();
  const tags = useTagOptions();
  const fields = useCustomFields();

  const edit: Edit = useCallback((change, path) => {
    setDraft((d) => {
      const next = structuredClone(d);
      change(next);
      return next;
    });
    if (path)
      setServer((s) => {
        const gone = problemsUnder(s, path);
        if (gone.length === 0) return s;
        const rest = { ...s };
        for (const k of gone) delete rest[k];
        return rest;
      });
  }, []);

  const live = checked ? problemsOf(draft) : {};
  const problems: Record<string, string> = { ...server, ...live };
  const error = (path: string) => {
    const m = problems[path];
    return m === undefined ? undefined : problemText(m, path);
  };

  /** Shows a problem's field: its step and its language, then focuses it. */
  const goTo = (path: string | null) => {
    if (!path) return;
    const at = locate(path);
    if (at.step !== null) setStep(at.step);
    if (at.lang && draft.languages.includes(at.lang)) setLang(at.lang);
    const target = testIdOf(path);
    // After the switch has rendered the field.
    window.setTimeout(() => {
      const el = document.querySelector<HTMLElement>(`[data-testid="${target}"]`);
      el?.scrollIntoView({ block: 'center' });
      if (el && 'focus' in el) el.focus({ preventScroll: true });
    }, 50);
  };

  const submit = () => {
    const found = problemsOf(draft);
    if (Object.keys(found).length > 0) {
      setChecked(true);
      goTo(firstProblem(found));
      return;
    }
    save.mutate(
      { id: id || null, body: draft },
      {
        onSuccess: (res) => {
          setServer({});
          toastSuccess(res.message || t('business.leadForms.saved'));
          if (!id) navigate(pathOf('business.leadForms.edit', { id: res.data.id }), { replace: true });
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'VALIDATION') {
            const found = serverProblems(err.body?.errors);
            if (Object.keys(found).length === 0) return toastError(err.message);
            setServer(found);
            goTo(firstProblem(found));
          } else toastError(err.message);
        },
      },
    );
  };

  const shownLang = draft.languages.includes(lang) ? lang : (draft.languages[0] ?? 'en');
  const ctx: Ctx = { draft, edit, lang: shownLang, error, problems };
  const stepIndex = Math.min(step, draft.steps.length - 1);
  const tagData = (tags.data ?? []).map((tg) => ({ value: String(tg.id), label: tg.name }));
  const targets = [
    ...CONTACT_TARGETS.map((c) => ({ value: c, label: t(`business.leadForms.targets.${c}`) })),
    ...(fields.data ?? []).map((f) => ({ value: `field:${f.key}`, label: f.label })),
  ];
  const list = Object.keys(problems).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

  return (
    <Stack data-testid="lf-form">
      <div>
        <Anchor component={Link} to={pathOf('business.leadForms')} size="sm">
          {t('business.leadForms.back')}
        </Anchor>
        <Group justify="space-between" align="flex-end">
          <Title order={2} data-testid="page-title">
            {id
              ? t('business.leadForms.edit_title', { name: form?.name ?? '' })
              : t('business.leadForms.add')}
          </Title>
          <Button onClick={submit} loading={save.isPending} data-testid="lf-save">
            {t('common.save')}
          </Button>
        </Group>
      </div>
      {list.length > 0 && (
        <Alert color="red" title={t('business.leadForms.problems_title')} data-testid="lf-problems">
          <Stack gap={2}>
            {list.map((path, n) => (
              <UnstyledButton
                key={path}
                onClick={() => goTo(path)}
                data-testid={`lf-problem-${n}`}
                data-path={path}
              >
                <Text size="sm">
                  {placeOf(path, t)}: {error(path)}
                </Text>
              </UnstyledButton>
            ))}
          </Stack>
        </Alert>
      )}
      <Grid gutter="lg" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack>
            <Paper withBorder p="md" radius="md">
              <Stack>
                <Group align="flex-start" grow>
                  <TextInput
                    label={t('business.leadForms.name')}
                    required
                    value={draft.name}
                    onChange={(e) => {
                      const v = e.currentTarget.value;
                      edit((d) => {
                        d.name = v;
                      }, 'name');
                    }}
                    error={error('name')}
                    data-testid="lf-name"
                  />
                  <Switch
                    mt={30}
                    label={t('business.leadForms.active')}
                    checked={draft.active}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      edit((d) => {
                        d.active = on;
                      });
                    }}
                    data-testid="lf-active"
                  />
                </Group>
                <Checkbox.Group
                  label={t('business.leadForms.languages')}
                  description={t('business.leadForms.languages_hint')}
                  value={draft.languages}
                  onChange={(v) => {
                    if (v.length === 0) return;
                    setDraft((d) => withLanguages(d, v as TLeadLanguage[]));
                  }}
                  error={error('languages')}
                  data-testid="lf-languages"
                >
                  <Group mt={6}>
                    {LEAD_LANGUAGES.map((l) => (
                      <Checkbox
                        key={l}
                        value={l}
                        label={t(`business.leadForms.language_names.${l}`)}
                        disabled={draft.languages.length === 1 && draft.languages[0] === l}
                        data-testid={`lf-lang-${l}`}
                      />
                    ))}
                  </Group>
                </Checkbox.Group>
                <MultiSelect
                  label={t('business.leadForms.tags')}
                  description={t('business.leadForms.tags_hint')}
                  data={tagData}
                  value={draft.tag_ids.map(String)}
                  onChange={(v) =>
                    edit((d) => {
                      d.tag_ids = v.map(Number);
                    }, 'tag_ids')
                  }
                  error={error('tag_ids') ?? problemsUnder(problems, 'tag_ids').map((p) => error(p))[0]}
                  searchable
                  clearable
                  nothingFoundMessage={t('business.leadForms.no_tags')}
                  data-testid="lf-tags"
                />
              </Stack>
            </Paper>

            <Group justify="space-between" align="flex-end">
              <Tabs value={shownLang} onChange={(v) => v && setLang(v as TLeadLanguage)}>
                <Tabs.List>
                  {draft.languages.map((l) => (
                    <Tabs.Tab
                      key={l}
                      value={l}
                      data-testid={`lf-tab-${l}`}
                      rightSection={
                        Object.keys(problems).some((p) => locate(p).lang === l) ? (
                          <Badge size="xs" color="red" circle>
                            !
                          </Badge>
                        ) : null
                      }
                    >
                      {t(`business.leadForms.language_names.${l}`)}
                    </Tabs.Tab>
                  ))}
                </Tabs.List>
              </Tabs>
              <Text size="xs" c="dimmed">
                {t('business.leadForms.editing_in', {
                  language: t(`business.leadForms.language_names.${shownLang}`),
                })}
              </Text>
            </Group>

            <Paper withBorder p="md" radius="md">
              <Stack>
                <Group justify="space-between">
                  <Title order={4}>{t('business.leadForms.steps')}</Title>
                  <Button
                    variant="light"
                    size="xs"
                    disabled={draft.steps.length >= 10}
                    onClick={() => {
                      edit((d) => {
                        d.steps.push(newStep(d));
                      }, 'steps');
                      setStep(draft.steps.length);
                    }}
                    data-testid="lf-add-step"
                  >
                    {t('business.leadForms.add_step')}
                  </Button>
                </Group>
                {error('steps') && (
                  <Text c="red" size="sm" data-testid="lf-steps" tabIndex={-1}>
                    {error('steps')}
                  </Text>
                )}
                <Tabs value={String(stepIndex)} onChange={(v) => v !== null && setStep(Number(v))}>
                  <Tabs.List>
                    {draft.steps.map((s, i) => (
                      <Tabs.Tab
                        key={s.id}
                        value={String(i)}
                        data-testid={`lf-step-tab-${i}`}
                        c={problemsUnder(problems, `steps.${i}`).length ? 'red' : undefined}
                      >
                        {t('business.leadForms.step_n', { n: i + 1 })}
                      </Tabs.Tab>
                    ))}
                  </Tabs.List>
                </Tabs>
                <StepEditor ctx={ctx} s={stepIndex} tags={tagData} targets={targets} onMoved={setStep} />
              </Stack>
            </Paper>

            <Paper withBorder p="md" radius="md">
              <Stack>
                <Title order={4}>
                  {t('business.leadForms.texts_title', {
                    language: t(`business.leadForms.language_names.${shownLang}`),
                  })}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  {LEAD_TEXT_KEYS.map((key) => {
                    const path = `texts.${shownLang}.${key}`;
                    const props = {
                      label: t(`business.leadForms.text_keys.${key}`),
                      placeholder: LEAD_TEXT_DEFAULTS[shownLang][key],
                      value: draft.texts[shownLang]?.[key] ?? '',
                      error: error(path),
                      'data-testid': `lf-text-${key}-${shownLang}`,
                    };
                    const set = (v: string) =>
                      edit((d) => {
                        d.texts[shownLang] = { ...d.texts[shownLang], [key]: v };
                      }, path);
                    return key === 'description' || key === 'thanks' ? (
                      <Textarea
                        key={key}
                        autosize
                        minRows={2}
                        {...props}
                        onChange={(e) => set(e.currentTarget.value)}
                      />
                    ) : (
                      <TextInput key={key} {...props} onChange={(e) => set(e.currentTarget.value)} />
                    );
                  })}
                </SimpleGrid>
              </Stack>
            </Paper>

            <Paper withBorder p="md" radius="md">
              <Stack>
                <Title order={4}>{t('business.leadForms.styling')}</Title>
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  {STYLE_NUMBERS.map(([key, min, max]) => (
                    <NumberInput
                      key={key}
                      label={t(`business.leadForms.style_keys.${key}`)}
                      min={min}
                      max={max}
                      allowDecimal={false}
                      value={draft.styling[key]}
                      onChange={(v) =>
                        edit((d) => {
                          d.styling[key] = typeof v === 'number' ? v : (Number(v) as number);
                        }, `styling.${key}`)
                      }
                      error={error(`styling.${key}`)}
                      description={t('business.leadForms.default_value', {
                        value: LEAD_STYLING_DEFAULTS[key],
                      })}
                      data-testid={`lf-style-${key}`}
                    />
                  ))}
                </SimpleGrid>
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  {STYLE_COLORS.map((key) => (
                    <ColorInput
                      key={key}
                      label={t(`business.leadForms.style_keys.${key}`)}
                      format="hex"
                      value={draft.styling[key]}
                      onChange={(v) =>
                        edit((d) => {
                          (d.styling as TLeadStyling)[key] = v.toUpperCase();
                        }, `styling.${key}`)
                      }
                      error={error(`styling.${key}`)}
                      data-testid={`lf-style-${key}`}
                    />
                  ))}
                </SimpleGrid>
              </Stack>
            </Paper>
            <Group justify="flex-end">
              <Button variant="default" component={Link} to={pathOf('business.leadForms')}>
                {t('common.cancel')}
              </Button>
              <Button onClick={submit} loading={save.isPending} data-testid="lf-save-bottom">
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Box pos="sticky" top={16}>
            <Paper withBorder p="md" radius="md" data-testid="lf-preview">
              <Stack gap="sm">
                <Text fw={600}>{t('business.leadForms.preview')}</Text>
                <Text size="xs" c="dimmed">
                  {t('business.leadForms.preview_hint')}
                </Text>
                <LeadFormPreview
                  form={publicLeadForm({ ...draft, id })}
                  lang={shownLang}
                  step={stepIndex}
                  onStep={setStep}
                  restartLabel={t('business.leadForms.preview_again')}
                  testId="lf-preview-form"
                />
              </Stack>
            </Paper>
          </Box>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** Where a problem is, in words: "Step 2, question 3" (or the form's part), for the problems list. */
function placeOf(path: string, t: (k: string, o?: Record<string, unknown>) => string): string {
  const p = path.split('.');
  const lang = locate(path).lang;
  const inLang = lang ? ` (${t(`business.leadForms.language_names.${lang}`)})` : '';
  if (p[0] === 'steps' && p[1] !== undefined) {
    const where = [t('business.leadForms.step_n', { n: Number(p[1]) + 1 })];
    if (p[2] === 'questions' && p[3] !== undefined)
      where.push(t('business.leadForms.question_n', { n: Number(p[3]) + 1 }));
    if (p[4] === 'options' && p[5] !== undefined)
      where.push(t('business.leadForms.option_n', { n: Number(p[5]) + 1 }));
    return where.join(', ') + inLang;
  }
  const part =
    p[0] === 'steps' ? 'steps' : p[0] === 'texts' ? 'texts' : p[0] === 'styling' ? 'styling' : 'form';
  return t(`business.leadForms.places.${part}`) + inLang;
}

function StepEditor(props: {
  ctx: Ctx;
  s: number;
  tags: { value: string; label: string }[];
  targets: { value: string; label: string }[];
  onMoved: (step: number) => void;
}) {
  const { t } = useTranslation();
  const { ctx, s } = props;
  const { draft, edit, lang, error } = ctx;
  const step = draft.steps[s];
  if (!step) return null;
  const at = `steps.${s}`;
  const removeStep = () => {
    const go = () => {
      edit((d) => {
        d.steps.splice(s, 1);
      }, 'steps');
      props.onMoved(Math.max(0, s - 1));
    };
    if (step.questions.length === 0) go();
    else
      confirmAction({
        title: t('business.leadForms.remove_step_title'),
        text: t('business.leadForms.remove_step_confirm', { n: s + 1, count: step.questions.length }),
        confirm: t('business.leadForms.remove'),
        onConfirm: go,
        testId: 'lf-remove-step-ok',
      });
  };
  return (
    <Stack data-testid={`lf-step-${s}`} tabIndex={-1}>
      <Group align="flex-end" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={t('business.leadForms.step_title', { n: s + 1 })}
          description={t('business.leadForms.optional')}
          value={step.title[lang] ?? ''}
          onChange={(e) => {
            const v = e.currentTarget.value;
            edit((d) => {
              const st = d.steps[s];
              if (st) st.title[lang] = v;
            }, `${at}.title.${lang}`);
          }}
          error={error(`${at}.title.${lang}`)}
          data-testid={`lf-step-${s}-title-${lang}`}
        />
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="default"
            size="lg"
            disabled={s === 0}
            onClick={() => {
              edit((d) => {
                d.steps = move(d.steps, s, s - 1);
              }, 'steps');
              props.onMoved(s - 1);
            }}
            aria-label={t('business.leadForms.step_earlier')}
            data-testid={`lf-step-${s}-up`}
          >
            ←
          </ActionIcon>
          <ActionIcon
            variant="default"
            size="lg"
            disabled={s === draft.steps.length - 1}
            onClick={() => {
              edit((d) => {
                d.steps = move(d.steps, s, s + 1);
              }, 'steps');
              props.onMoved(s + 1);
            }}
            aria-label={t('business.leadForms.step_later')}
            data-testid={`lf-step-${s}-down`}
          >
            →
          </ActionIcon>
          <Button
            variant="subtle"
            color="red"
            disabled={draft.steps.length === 1}
            onClick={removeStep}
            data-testid={`lf-step-${s}-remove`}
          >
            {t('business.leadForms.remove_step')}
          </Button>
        </Group>
      </Group>
      {error(`${at}.questions`) && (
        <Text c="red" size="sm">
          {error(`${at}.questions`)}
        </Text>
      )}
      {step.questions.map((q, i) => (
        <QuestionCard key={q.id} ctx={ctx} s={s} i={i} q={q} tags={props.tags} targets={props.targets} />
      ))}
      <Group>
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button
              variant="light"
              disabled={step.questions.length >= 20}
              data-testid={`lf-add-question-${s}`}
            >
              {t('business.leadForms.add_question')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {QUESTION_TYPES.map((type) => (
              <Menu.Item
                key={type}
                onClick={() =>
                  edit((d) => {
                    d.steps[s]?.questions.push(newQuestion(d, type));
                  }, `${at}.questions`)
                }
                data-testid={`lf-add-question-${s}-${type}`}
              >
                {t(`business.leadForms.types.${type}`)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Stack>
  );
}

function QuestionCard(props: {
  ctx: Ctx;
  s: number;
  i: number;
  q: TLeadQuestion;
  tags: { value: string; label: string }[];
  targets: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  const { ctx, s, i, q } = props;
  const { draft, edit, lang, error, problems } = ctx;
  const at = `steps.${s}.questions.${i}`;
  const id = `lf-q-${s}-${i}`;
  const count = draft.steps[s]?.questions.length ?? 0;
  const change = (path: string, fn: (q: TLeadQuestion) => void) =>
    edit((d) => {
      const found = d.steps[s]?.questions[i];
      if (found) fn(found);
    }, path);
  const noTag = { value: '', label: t('business.leadForms.no_tag') };
  const bad = problemsUnder(problems, at).length > 0;
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      data-testid={id}
      tabIndex={-1}
      style={bad ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Badge variant="light">{t('business.leadForms.question_n', { n: i + 1 })}</Badge>
            <NativeSelect
              aria-label={t('business.leadForms.type')}
              data={QUESTION_TYPES.map((type) => ({
                value: type,
                label: t(`business.leadForms.types.${type}`),
              }))}
              value={q.type}
              onChange={(e) => {
                const type = e.currentTarget.value as TLeadQuestion['type'];
                edit((d) => {
                  const st = d.steps[s];
                  const cur = st?.questions[i];
                  if (st && cur) st.questions[i] = retype(cur, type);
                }, at);
              }}
              error={error(`${at}.type`)}
              data-testid={`${id}-type`}
            />
          </Group>
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="default"
              disabled={i === 0}
              onClick={() =>
                edit((d) => {
                  const st = d.steps[s];
                  if (st) st.questions = move(st.questions, i, i - 1);
                }, `steps.${s}.questions`)
              }
              aria-label={t('business.leadForms.move_up')}
              data-testid={`${id}-up`}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              variant="default"
              disabled={i === count - 1}
              onClick={() =>
                edit((d) => {
                  const st = d.steps[s];
                  if (st) st.questions = move(st.questions, i, i + 1);
                }, `steps.${s}.questions`)
              }
              aria-label={t('business.leadForms.move_down')}
              data-testid={`${id}-down`}
            >
              ↓
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() =>
                edit((d) => {
                  d.steps[s]?.questions.splice(i, 1);
                }, `steps.${s}.questions`)
              }
              aria-label={t('business.leadForms.remove_question')}
              data-testid={`${id}-remove`}
            >
              ✕
            </ActionIcon>
          </Group>
        </Group>
        {error(at) || error(`${at}.id`) ? (
          <Text c="red" size="sm">
            {error(at) ?? error(`${at}.id`)}
          </Text>
        ) : null}
        <TextInput
          label={t(q.type === 'consent' ? 'business.leadForms.consent_text' : 'business.leadForms.label', {
            language: t(`business.leadForms.language_names.${lang}`),
          })}
          required
          value={q.label[lang] ?? ''}
          onChange={(e) => {
            const v = e.currentTarget.value;
            change(`${at}.label.${lang}`, (x) => {
              x.label[lang] = v;
            });
          }}
          error={error(`${at}.label.${lang}`)}
          data-testid={`${id}-label-${lang}`}
        />
        {q.type !== 'choice' && q.type !== 'consent' && (
          <TextInput
            label={t('business.leadForms.placeholder', {
              language: t(`business.leadForms.language_names.${lang}`),
            })}
            value={q.placeholder[lang] ?? ''}
            onChange={(e) => {
              const v = e.currentTarget.value;
              change(`${at}.placeholder.${lang}`, (x) => {
                x.placeholder[lang] = v;
              });
            }}
            error={error(`${at}.placeholder.${lang}`)}
            data-testid={`${id}-placeholder-${lang}`}
          />
        )}
        <Group align="flex-end">
          <Switch
            label={t('business.leadForms.required')}
            checked={q.required}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              change(`${at}.required`, (x) => {
                x.required = on;
              });
            }}
            error={error(`${at}.required`)}
            data-testid={`${id}-required`}
          />
          {q.type === 'choice' && (
            <Switch
              label={t('business.leadForms.multi')}
              checked={q.is_allow_multi_select}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                change(`${at}.is_allow_multi_select`, (x) => {
                  x.is_allow_multi_select = on;
                });
              }}
              data-testid={`${id}-multi`}
            />
          )}
        </Group>
        <Group grow align="flex-start">
          {q.type !== 'consent' && (
            <NativeSelect
              label={t('business.leadForms.map_to')}
              description={t('business.leadForms.map_to_hint')}
              data={[{ value: '', label: t('business.leadForms.map_none') }, ...props.targets]}
              value={q.map_to ?? ''}
              onChange={(e) => {
                const v = e.currentTarget.value;
                change(`${at}.map_to`, (x) => {
                  x.map_to = (v || null) as TLeadQuestion['map_to'];
                });
              }}
              error={error(`${at}.map_to`)}
              data-testid={`${id}-map`}
            />
          )}
          {q.type === 'consent' && (
            <NativeSelect
              label={t('business.leadForms.consent_tag')}
              data={[noTag, ...props.tags]}
              value={q.tag_id ? String(q.tag_id) : ''}
              onChange={(e) => {
                const v = e.currentTarget.value;
                change(`${at}.tag_id`, (x) => {
                  x.tag_id = v ? Number(v) : null;
                });
              }}
              error={error(`${at}.tag_id`)}
              data-testid={`${id}-tag`}
            />
          )}
        </Group>
        {q.type === 'choice' && (
          <Stack gap={6} data-testid={`${id}-options`} tabIndex={-1}>
            <Text size="sm" fw={500}>
              {t('business.leadForms.options')}
            </Text>
            {error(`${at}.options`) && (
              <Text c="red" size="sm">
                {error(`${at}.options`)}
              </Text>
            )}
            {q.options.map((o, j) => {
              const op = `${at}.options.${j}`;
              const oid = `lf-opt-${s}-${i}-${j}`;
              return (
                <Group key={o.id} align="flex-start" wrap="nowrap" data-testid={oid}>
                  <TextInput
                    style={{ flex: 2 }}
                    aria-label={t('business.leadForms.option_label', {
                      n: j + 1,
                      language: t(`business.leadForms.language_names.${lang}`),
                    })}
                    placeholder={t('business.leadForms.option_label', {
                      n: j + 1,
                      language: t(`business.leadForms.language_names.${lang}`),
                    })}
                    value={o.label[lang] ?? ''}
                    onChange={(e) => {
                      const v = e.currentTarget.value;
                      change(`${op}.label.${lang}`, (x) => {
                        const opt = x.options[j];
                        if (opt) opt.label[lang] = v;
                      });
                    }}
                    error={error(`${op}.label.${lang}`) ?? error(`${op}.id`)}
                    data-testid={`${oid}-label-${lang}`}
                  />
                  <NativeSelect
                    style={{ flex: 1 }}
                    aria-label={t('business.leadForms.option_tag', { n: j + 1 })}
                    data={[noTag, ...props.tags]}
                    value={o.tag_id ? String(o.tag_id) : ''}
                    onChange={(e) => {
                      const v = e.currentTarget.value;
                      change(`${op}.tag_id`, (x) => {
                        const opt = x.options[j];
                        if (opt) opt.tag_id = v ? Number(v) : null;
                      });
                    }}
                    error={error(`${op}.tag_id`)}
                    data-testid={`${oid}-tag`}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={6}
                    onClick={() =>
                      change(`${at}.options`, (x) => {
                        x.options.splice(j, 1);
                      })
                    }
                    aria-label={t('business.leadForms.remove_option', { n: j + 1 })}
                    data-testid={`${oid}-remove`}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              );
            })}
            <Group>
              <Button
                size="xs"
                variant="subtle"
                disabled={q.options.length >= 30}
                onClick={() =>
                  change(`${at}.options`, (x) => {
                    x.options.push(newOption(x));
                  })
                }
                data-testid={`lf-add-option-${s}-${i}`}
              >
                {t('business.leadForms.add_option')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
