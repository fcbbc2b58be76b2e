/**
 * /dictation (issue 23): dictate free text and copy it or keep it as a note — with the browser's recognition
 * where it exists and the hospital allows it, else by recording for the hospital's transcription service (or, for
 * a patient, keeping the recording to be typed later) — and the person's recordings waiting to be typed.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import {
  IconCheck,
  IconCopy,
  IconInfoCircle,
  IconMicrophone,
  IconNote,
  IconPlayerRecordFilled,
  IconPlayerStopFilled,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PatientPicker } from '../../../lib/clinical/components/PatientPicker';
import { appendDictation } from '../../../lib/dictation/DictationButton';
import { useSpeechRecognition } from '../../../lib/dictation/speech';
import { formatDateTime } from '../../../lib/format';
import { useNoteMutations } from '../../../lib/notes/api';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useDictationConfig, useMarkTyped, useRecordings, useTranscribe } from '../api/dictation';

const PAGE_SIZE = 10;

/** Records the microphone with MediaRecorder (for the server's transcription), where the browser has it. */
function useRecorder() {
  const recorder = useRef<MediaRecorder | null>(null);
  const [recording, setRecording] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const supported =
    typeof window !== 'undefined' && 'MediaRecorder' in window && Boolean(navigator.mediaDevices);
  const start = async (onDone: (blob: Blob) => void) => {
    setError(null);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const r = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      r.ondataavailable = (event) => chunks.push(event.data);
      r.onstop = () => {
        for (const track of stream.getTracks()) track.stop();
        setRecording(false);
        onDone(new Blob(chunks, { type: r.mimeType || 'audio/webm' }));
      };
      recorder.current = r;
      r.start();
      setRecording(true);
    } catch (err) {
      setError(err instanceof Error ? err.name : 'error');
    }
  };
  const stop = () => recorder.current?.stop();
  useEffect(() => () => recorder.current?.stop(), []);
  return { supported, recording, error, start, stop };
}

function DictationPad() {
  const { t, i18n } = useTranslation('notes');
  const config = useDictationConfig();
  const speech = useSpeechRecognition(i18n.language);
  const recorder = useRecorder();
  const transcribe = useTranscribe();
  const { create } = useNoteMutations(null);
  const [text, setText] = useState('');
  const [patient, setPatient] = useState<string | null>(null);
  const browserAllowed = config.data?.browser_enabled ?? true;
  const useBrowser = speech.supported && browserAllowed;
  useEffect(() => {
    if (speech.text) setText((before) => appendDictation(before, speech.text));
    speech.reset();
  }, [speech.text, speech.reset]);

  const send = (audio: Blob) =>
    transcribe.mutate(
      { audio, language: i18n.language, patient, context: t('dictation.pageContext') },
      {
        onSuccess: (result) => {
          if (result.status === 'transcribed' && result.text)
            setText((before) => appendDictation(before, result.text ?? ''));
          else if (result.status === 'stored') toast({ kind: 'info', title: t('dictation.stored') });
          else toast({ kind: 'warning', title: t('dictation.unavailable') });
        },
      },
    );

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast({ kind: 'success', title: t('dictation.copied') });
    } catch {
      toast({ kind: 'error', title: t('dictation.copyFailed') });
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} data-testid="dictation-where">
          <Stack gap={4}>
            <Text size="sm">{t('dictation.privacy')}</Text>
            <Text size="sm">
              {config.data?.server_transcription ? t('dictation.serverOn') : t('dictation.serverOff')}
            </Text>
            {!browserAllowed && <Text size="sm">{t('dictation.disabledByHospital')}</Text>}
            {!speech.supported && <Text size="sm">{t('dictation.unsupported')}</Text>}
          </Stack>
        </Alert>
        <Group gap="sm" wrap="wrap">
          {useBrowser &&
            (speech.listening ? (
              <Button color="red" leftSection={<IconPlayerStopFilled size={16} />} onClick={speech.stop}>
                {t('dictation.stop')}
              </Button>
            ) : (
              <Button leftSection={<IconMicrophone size={16} />} onClick={speech.start}>
                {t('dictation.start')}
              </Button>
            ))}
          {!useBrowser &&
            recorder.supported &&
            (recorder.recording ? (
              <Button color="red" leftSection={<IconPlayerStopFilled size={16} />} onClick={recorder.stop}>
                {t('dictation.stopRecording')}
              </Button>
            ) : (
              <Button
                leftSection={<IconPlayerRecordFilled size={16} />}
                loading={transcribe.isPending}
                onClick={() => void recorder.start(send)}
              >
                {t('dictation.record')}
              </Button>
            ))}
          {(speech.listening || recorder.recording) && (
            <Text size="sm" c="red" role="status">
              {t('dictation.listening')}
            </Text>
          )}
        </Group>
        {!useBrowser && (
          <PatientPicker
            label={t('dictation.patient')}
            description={t('dictation.patientHint')}
            nothingFound={t('dictation.noPatient')}
            value={patient}
            onChange={setPatient}
            required={false}
            clearable
            w={420}
          />
        )}
        {speech.interim && (
          <Text size="sm" c="dimmed" fs="italic">
            {speech.interim}
          </Text>
        )}
        {(speech.error || recorder.error) && (
          <Alert color="red" role="alert">
            {speech.error === 'not-allowed' || recorder.error === 'NotAllowedError'
              ? t('dictation.errors.notAllowed')
              : t('dictation.errors.other', { error: speech.error ?? recorder.error })}
          </Alert>
        )}
        <Textarea
          label={t('dictation.text')}
          description={t('dictation.correctHint')}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          autosize
          minRows={8}
          maxRows={20}
        />
        <Group gap="xs" justify="flex-end">
          <Button
            variant="default"
            leftSection={<IconCopy size={16} />}
            disabled={!text.trim()}
            onClick={copy}
          >
            {t('dictation.copy')}
          </Button>
          <Button
            leftSection={<IconNote size={16} />}
            disabled={!text.trim()}
            loading={create.isPending}
            onClick={() =>
              create.mutate(
                {
                  title: t('dictation.noteTitle', { date: formatDateTime(new Date().toISOString()) }),
                  body: text.trim(),
                  tags: ['dictee'],
                },
                {
                  onSuccess: () => {
                    toast({ kind: 'success', title: t('dictation.savedAsNote') });
                    setText('');
                  },
                },
              )
            }
          >
            {t('dictation.saveAsNote')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function PendingRecordings() {
  const { t } = useTranslation('notes');
  const path = useLocalizedPath();
  const [page, setPage] = useState(1);
  const query = useRecordings(page, PAGE_SIZE);
  const typed = useMarkTyped();
  const data = query.data;
  return (
    <Card withBorder radius="md" padding="md" data-testid="pending-recordings">
      <Stack gap="sm">
        <Title order={4}>{t('recordings.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('recordings.hint')}
        </Text>
        {query.isError ? (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ) : !data ? (
          <Skeleton h={80} />
        ) : data.results.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid="recordings-empty">
            {t('recordings.empty')}
          </Text>
        ) : (
          <>
            <Table.ScrollContainer minWidth={560}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('recordings.patient')}</Table.Th>
                    <Table.Th>{t('recordings.context')}</Table.Th>
                    <Table.Th>{t('recordings.when')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.results.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td>
                        <Link to={path(`/patients/${r.patient.id}`)}>{r.patient.full_name}</Link>{' '}
                        <Badge variant="light" size="xs">
                          {r.language.toUpperCase()}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{r.context ?? '—'}</Table.Td>
                      <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="light"
                          leftSection={<IconCheck size={14} />}
                          loading={typed.isPending && typed.variables === r.id}
                          onClick={() => typed.mutate(r.id)}
                        >
                          {t('recordings.markTyped')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {data.count > PAGE_SIZE && (
              <Group justify="center">
                <Pagination total={Math.ceil(data.count / PAGE_SIZE)} value={page} onChange={setPage} />
              </Group>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}

export default function DictationPage() {
  const { t } = useTranslation('notes');
  return (
    <Stack gap="md" data-testid="dictation-page">
      <PageHeader title={t('dictation.pageTitle')} subtitle={t('dictation.pageSubtitle')} />
      <DictationPad />
      <PendingRecordings />
    </Stack>
  );
}
