/** /notes (issue 23): the signed-in person's own notes — pinned first, searched by title, text and tag. */
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NotesList } from '../../../lib/notes/NotesList';
import { PageHeader } from '../../../lib/page-states';

export default function NotesPage() {
  const { t } = useTranslation('notes');
  return (
    <Stack gap="md" data-testid="notes-page">
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} />
      <NotesList patient={null} />
    </Stack>
  );
}
