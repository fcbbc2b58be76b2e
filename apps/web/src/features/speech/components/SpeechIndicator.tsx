/** Shows whether the browser offers speech recognition (dictation). Silent where it does not. */
import { Badge, Tooltip } from '@mantine/core';
import { IconMicrophone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function hasSpeechRecognition(win: object = window): boolean {
  return 'SpeechRecognition' in win || 'webkitSpeechRecognition' in win;
}

export default function SpeechIndicator() {
  const { t } = useTranslation('shell');
  if (!hasSpeechRecognition()) return null;
  return (
    <Tooltip label={t('speech.available')}>
      <Badge
        variant="light"
        color="greensen"
        size="lg"
        radius="sm"
        leftSection={<IconMicrophone size={14} />}
        data-testid="speech-indicator"
        visibleFrom="sm"
      >
        {t('speech.short')}
      </Badge>
    </Tooltip>
  );
}
