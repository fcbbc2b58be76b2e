/**
 * The "Documents" tab of a patient's record (issue 19): the documents issued for the patient (certificates,
 * letters, reports… with their PDF) and the files uploaded to the record (scans, photos, PDFs), with "Add a
 * document" (upload) and "Print / issue" (a certificate or a letter from the patient alone).
 */
import { Button, Group, Stack, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHospitalSettings } from '../hospital-settings';
import { useDocuments, usePatientDocuments } from './api';
import { IssuedDocumentsTable, UploadedDocumentsTable } from './DocumentLists';
import { IssueDocumentButton } from './IssueDocumentButton';
import { UploadDocumentModal } from './UploadDocumentModal';

const PAGE_SIZE = 10;

export function PatientDocumentsPanel({ patientId, archived }: { patientId: string; archived: boolean }) {
  const { t } = useTranslation('documents');
  const [uploading, setUploading] = useState(false);
  const [issuedPage, setIssuedPage] = useState(1);
  const [uploadPage, setUploadPage] = useState(1);
  const issued = useDocuments({ patient: patientId, page: issuedPage, pageSize: PAGE_SIZE });
  const uploads = usePatientDocuments({ patient: patientId, page: uploadPage, pageSize: PAGE_SIZE });
  const settings = useHospitalSettings();
  const maxMb = settings.data?.upload_max_mb;
  return (
    <Stack gap="md" data-testid="patient-documents">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={4}>{t('list.tabs.uploaded')}</Title>
        {!archived && (
          <Group gap="xs">
            <IssueDocumentButton source={{ type: 'patient', id: patientId }} />
            <Button leftSection={<IconUpload size={16} />} onClick={() => setUploading(true)}>
              {t('patientTab.upload')}
            </Button>
          </Group>
        )}
      </Group>
      <UploadedDocumentsTable
        query={uploads}
        page={uploadPage}
        onPageChange={setUploadPage}
        pageSize={PAGE_SIZE}
        showPatient={false}
      />
      <Title order={4}>{t('list.tabs.issued')}</Title>
      <IssuedDocumentsTable
        query={issued}
        page={issuedPage}
        onPageChange={setIssuedPage}
        pageSize={PAGE_SIZE}
        showPatient={false}
      />
      <UploadDocumentModal
        patientId={patientId}
        opened={uploading}
        onClose={() => setUploading(false)}
        maxBytes={maxMb ? maxMb * 1024 * 1024 : undefined}
      />
    </Stack>
  );
}
