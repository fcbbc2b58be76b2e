/**
 * Upload a scan, a photo or a PDF to a patient's record: drop it on the zone, choose it, or take a photo with the
 * phone's camera (`capture`); category, the document's date and a description. The type and size are checked
 * here for a quick answer (the server decides by the content, and its refusals are shown translated).
 */
import {
  PATIENT_DOCUMENT_CATEGORIES,
  PATIENT_DOCUMENT_DEFAULT_MAX_BYTES,
  type PatientDocumentCategory,
} from '@greensen/shared/contracts/documents';
import { Alert, Button, Group, Modal, Paper, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconCamera, IconFileUpload, IconUpload } from '@tabler/icons-react';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api-client';
import { DateField } from '../date-field';
import { toast } from '../toast';
import { useUploadPatientDocument } from './api';

const ACCEPT = 'image/*,application/pdf';
const ACCEPTED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'image/heif',
  'application/pdf',
];

export function formatBytes(bytes: number, lang: string): string {
  const units = lang === 'fr' ? ['o', 'Ko', 'Mo', 'Go'] : ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/** Why a chosen file is refused before sending (a type outside images and PDF, or too large), else null. */
export function fileProblem(file: File, maxBytes: number): 'badType' | 'tooLarge' | null {
  if (file.type && !ACCEPTED_TYPES.includes(file.type)) return 'badType';
  if (file.size > maxBytes) return 'tooLarge';
  return null;
}

export function UploadDocumentModal({
  patientId,
  opened,
  onClose,
  maxBytes = PATIENT_DOCUMENT_DEFAULT_MAX_BYTES,
}: {
  patientId: string;
  opened: boolean;
  onClose: () => void;
  maxBytes?: number;
}) {
  const { t, i18n } = useTranslation('documents');
  const upload = useUploadPatientDocument();
  const input = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [category, setCategory] = useState<PatientDocumentCategory>('other');
  const [date, setDate] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const size = formatBytes(maxBytes, i18n.language);

  function choose(next: File | undefined) {
    if (!next) return;
    const problem = fileProblem(next, maxBytes);
    setError(problem ? t(`patientTab.${problem}`, { size }) : null);
    setFile(problem ? null : next);
  }

  function close() {
    setFile(null);
    setError(null);
    setDescription('');
    setDate('');
    setCategory('other');
    onClose();
  }

  function serverError(failure: unknown): string {
    if (!isApiError(failure)) return t('viewer.error');
    if (failure.status === 413) return t('patientTab.tooLarge', { size });
    if (failure.status === 400) {
      const message = failure.fieldError('file');
      if (message) return message;
    }
    return failure.message;
  }

  function submit() {
    if (!file) {
      setError(t('patientTab.noFile'));
      return;
    }
    upload.mutate(
      { patient: patientId, category, documentDate: date || null, description, file },
      {
        onSuccess: () => {
          toast({ kind: 'success', title: t('patientTab.uploaded') });
          close();
        },
        onError: (failure) => setError(serverError(failure)),
      },
    );
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  }

  return (
    <Modal opened={opened} onClose={close} title={t('patientTab.upload')} size="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Paper
            withBorder
            radius="md"
            p="lg"
            data-testid="upload-dropzone"
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            style={{
              borderStyle: 'dashed',
              borderWidth: 2,
              borderColor: dragging ? 'var(--mantine-color-greensen-6)' : undefined,
              textAlign: 'center',
            }}
          >
            <Stack align="center" gap={6}>
              <IconFileUpload size={32} stroke={1.5} />
              <Text size="sm">
                {file ? (
                  <Text span fw={600} data-testid="upload-file-name">
                    {file.name} · {formatBytes(file.size, i18n.language)}
                  </Text>
                ) : (
                  t('patientTab.dropzone')
                )}
              </Text>
              <Group gap="xs" justify="center">
                <Button size="xs" variant="light" onClick={() => input.current?.click()}>
                  {t('patientTab.choose')}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconCamera size={14} />}
                  onClick={() => camera.current?.click()}
                >
                  {t('patientTab.camera')}
                </Button>
              </Group>
              <Text size="xs" c="dimmed">
                {t('patientTab.accepted', { size })}
              </Text>
            </Stack>
            <input
              ref={input}
              type="file"
              accept={ACCEPT}
              hidden
              aria-label={t('patientTab.file')}
              data-testid="upload-input"
              onChange={(event) => choose(event.currentTarget.files?.[0])}
            />
            <input
              ref={camera}
              type="file"
              accept="image/*"
              capture="environment"
              hidden
              aria-label={t('patientTab.camera')}
              onChange={(event) => choose(event.currentTarget.files?.[0])}
            />
          </Paper>
          <Group grow align="flex-start" wrap="wrap">
            <Select
              label={t('patientTab.category')}
              data={PATIENT_DOCUMENT_CATEGORIES.map((value) => ({ value, label: t(`category.${value}`) }))}
              value={category}
              allowDeselect={false}
              onChange={(value) => value && setCategory(value as PatientDocumentCategory)}
            />
            <DateField label={t('patientTab.date')} value={date} onChange={setDate} />
          </Group>
          <Textarea
            label={t('patientTab.description')}
            value={description}
            maxLength={1000}
            autosize
            minRows={2}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          {error && (
            <Alert color="red" role="alert" data-testid="upload-error">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('cancel.close')}
            </Button>
            <Button type="submit" loading={upload.isPending} leftSection={<IconUpload size={16} />}>
              {t('patientTab.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
