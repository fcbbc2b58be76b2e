/**
 * The "Notes" tab of a patient's record (issue 23): notes about the patient, read by those who read the clinical
 * record (the server decides; the tab is hidden from the others), written by the clinical staff.
 */
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NotesList } from './NotesList';

export function PatientNotesPanel({ patientId, canWrite }: { patientId: string; canWrite: boolean }) {
  const { t } = useTranslation('notes');
  return (
    <Stack gap="xs">
      {!canWrite && (
        <Text size="sm" c="dimmed">
          {t('patientTab.readOnly')}
        </Text>
      )}
      <NotesList patient={patientId} canWrite={canWrite} />
    </Stack>
  );
}
