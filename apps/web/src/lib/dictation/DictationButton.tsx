/**
 * The microphone of long text fields (issue 23): dictation with the browser's speech recognition in the UI
 * language, the text shown for correction before it is inserted. Where the browser has no recognition, or the
 * hospital switched it off, the button stays visible but disabled, its tooltip saying why.
 */
import { ActionIcon, Alert, Button, Group, Modal, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconInfoCircle, IconMicrophone, IconPlayerStopFilled } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHospitalSettings } from '../hospital-settings';
import { recognitionClass, useSpeechRecognition } from './speech';

/** Appends dictated text to a field's value, with a space or a new line between them. */
export function appendDictation(value: string, dictated: string): string {
  const text = dictated.trim();
  if (!text) return value;
  if (!value.trim()) return text;
  return /\n\s*$/.test(value) ? `${value}${text}` : `${value.replace(/\s+$/, '')} ${text}`;
}

function DictationDialog({
  opened,
  onClose,
  onInsert,
  label,
}: {
  opened: boolean;
  onClose: () => void;
  onInsert: (text: string) => void;
  label?: string | undefined;
}) {
  const { t, i18n } = useTranslation('notes');
  const speech = useSpeechRecognition(i18n.language);
  const [draft, setDraft] = useState('');
  // What is recognised lands in the correction field; the person may edit it meanwhile.
  useEffect(() => setDraft(speech.text), [speech.text]);
  const close = () => {
    speech.stop();
    speech.reset();
    setDraft('');
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={label ? t('dictation.titleFor', { label }) : t('dictation.title')}
      size="lg"
    >
      <Stack gap="sm">
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} data-testid="dictation-privacy">
          {t('dictation.privacy')}
        </Alert>
        <Group gap="sm">
          {speech.listening ? (
            <Button color="red" leftSection={<IconPlayerStopFilled size={16} />} onClick={speech.stop}>
              {t('dictation.stop')}
            </Button>
          ) : (
            <Button leftSection={<IconMicrophone size={16} />} onClick={speech.start}>
              {draft ? t('dictation.continue') : t('dictation.start')}
            </Button>
          )}
          {speech.listening && (
            <Text size="sm" c="red" role="status">
              {t('dictation.listening')}
            </Text>
          )}
        </Group>
        {speech.interim && (
          <Text size="sm" c="dimmed" fs="italic" data-testid="dictation-interim">
            {speech.interim}
          </Text>
        )}
        {speech.error && (
          <Alert color="red" role="alert">
            {t(speech.error === 'not-allowed' ? 'dictation.errors.notAllowed' : 'dictation.errors.other', {
              error: speech.error,
            })}
          </Alert>
        )}
        <Textarea
          label={t('dictation.correct')}
          description={t('dictation.correctHint')}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          autosize
          minRows={4}
          maxRows={12}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close}>
            {t('dictation.cancel')}
          </Button>
          <Button
            disabled={!draft.trim() || speech.listening}
            onClick={() => {
              onInsert(draft.trim());
              close();
            }}
          >
            {t('dictation.insert')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function DictationButton({
  onInsert,
  label,
  disabled,
}: {
  /** Receives the corrected text (the field appends it, e.g. with `appendDictation`). */
  onInsert: (text: string) => void;
  /** The field's name, in the dialog's title. */
  label?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation('notes');
  const settings = useHospitalSettings();
  const [open, setOpen] = useState(false);
  const supported = recognitionClass() !== null;
  const allowed = settings.data?.dictation_browser_enabled ?? true;
  const reason = !supported
    ? t('dictation.unsupported')
    : !allowed
      ? t('dictation.disabledByHospital')
      : null;
  return (
    <>
      <Tooltip label={reason ?? t('dictation.button')} multiline maw={280}>
        {/* A disabled button gets no pointer events: the span carries the tooltip with the reason. */}
        <span style={{ display: 'inline-flex' }}>
          <ActionIcon
            variant="subtle"
            aria-label={reason ? `${t('dictation.button')} — ${reason}` : t('dictation.button')}
            data-testid="dictation-button"
            disabled={Boolean(reason) || disabled}
            onClick={() => setOpen(true)}
          >
            <IconMicrophone size={18} />
          </ActionIcon>
        </span>
      </Tooltip>
      {open && <DictationDialog opened onClose={() => setOpen(false)} onInsert={onInsert} label={label} />}
    </>
  );
}
