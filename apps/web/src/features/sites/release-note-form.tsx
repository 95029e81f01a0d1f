import { Alert } from '@mantine/core';
import { type TReleaseNote, ZReleaseNoteRequest } from '@stn/contracts/users';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { SwitchField, TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormShell } from '../../components/form/form-shell.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { Loading } from '../../components/load-state.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { useReleaseNote, useSaveReleaseNote } from './api/release-notes.ts';

type Values = { title: string; content: string; published: boolean };
const FIELDS = ['title', 'content', 'published'] as const;

/** admin.releaseNote.create and admin.releaseNote.edit (:id): title, content and whether it is published. */
export default function ReleaseNoteFormPage() {
  const { id } = useParams();
  if (!id) return <ReleaseNoteForm />;
  return <EditReleaseNote id={Number(id)} />;
}

function EditReleaseNote({ id }: { id: number }) {
  const { t } = useTranslation();
  const note = useReleaseNote(id);
  if (note.isPending) return <Loading />;
  if (!note.data) return <Alert color="red">{t('admin.release_notes.not_found')}</Alert>;
  return <ReleaseNoteForm key={id} note={note.data} />;
}

function ReleaseNoteForm({ note }: { note?: TReleaseNote }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveReleaseNote(note?.id);
  const { form, submit } = useApiForm<Values>({
    initialValues: {
      title: note?.title ?? '',
      content: note?.content ?? '',
      published: note?.published ?? true,
    },
    validate: zodResolver(ZReleaseNoteRequest),
    fields: FIELDS,
    onSubmit: (values) => save.mutateAsync(values),
    onSuccess: () => navigate(pathOf('admin.releaseNote')),
  });

  return (
    <FormShell
      form={form}
      title={note ? t('admin.release_notes.edit_title') : t('admin.release_notes.add')}
      back={{ label: t('admin.release_notes.back'), to: pathOf('admin.releaseNote') }}
      onSubmit={submit}
      width={860}
      actions={<FormActions submitting={save.isPending} submitTestId="release-note-submit" />}
    >
      <TextField
        name="title"
        label={t('admin.release_notes.title_field')}
        required
        testId="release-note-title"
      />
      <TextareaField
        name="content"
        label={t('admin.release_notes.content')}
        description={t('admin.release_notes.content_hint')}
        required
        minRows={8}
        testId="release-note-content"
      />
      <SwitchField
        name="published"
        label={t('admin.release_notes.published')}
        testId="release-note-published"
      />
    </FormShell>
  );
}
