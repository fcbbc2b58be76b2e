/** /calendar: a month calendar whose day cells lose focus when clicked (spec §2). */
import '@mantine/dates/styles.css';
import 'dayjs/locale/fr';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { Calendar, DatesProvider } from '@mantine/dates';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export default function CalendarPage() {
  const { t, i18n } = useTranslation('routes');
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <DatesProvider settings={{ locale: i18n.language, firstDayOfWeek: 1 }}>
      <Stack gap="md">
        <div>
          <Title order={2}>{t('calendar')}</Title>
          <Text c="dimmed">{t('descriptions.calendar')}</Text>
        </div>
        <Paper withBorder p="md" radius="md" w="fit-content">
          <Calendar
            getDayProps={(date) => ({
              selected: date === selected,
              onClick: (event) => {
                setSelected(date);
                event.currentTarget.blur();
              },
            })}
          />
        </Paper>
        {selected && (
          <Text>
            {t('calendarSelected', {
              date: new Date(`${selected}T00:00:00`).toLocaleDateString(i18n.language, { dateStyle: 'full' }),
            })}
          </Text>
        )}
      </Stack>
    </DatesProvider>
  );
}
