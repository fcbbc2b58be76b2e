/**
 * The medicine search of the prescribing and receipt forms: a debounced search of the reference by INN (French
 * or English, accents and small typos tolerated by the server), brand or ATC code, listing the INN in the UI
 * language with its ATC code and group; essential medicines are marked.
 */
import type { TMedication } from '@greensen/shared/contracts/pharmacy';
import { Badge, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uiLanguage } from '../../i18n';
import { useMedications } from '../api/medications';
import { medicationName } from './prescription-format';

export function MedicationSearch({
  onPick,
  label,
  error,
  withAsterisk,
  placeholder,
}: {
  onPick: (medication: TMedication) => void;
  label?: string;
  error?: string | null;
  withAsterisk?: boolean;
  placeholder?: string;
}) {
  const { t } = useTranslation('pharmacy');
  const lang = uiLanguage();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const ready = debounced.trim().length >= 2;
  const query = useMedications({ search: debounced, page: 1, pageSize: 15 }, ready);
  const results = ready ? (query.data?.results ?? []) : [];
  const typing = search.trim() !== debounced.trim();

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(id) => {
        const medication = results.find((m) => m.id === id);
        if (medication) {
          onPick(medication);
          setSearch('');
          combobox.closeDropdown();
        }
      }}
    >
      <Combobox.Target>
        <TextInput
          label={label ?? t('search.label')}
          placeholder={placeholder ?? t('search.placeholder')}
          withAsterisk={withAsterisk}
          leftSection={<IconSearch size={16} />}
          rightSection={(query.isFetching && ready) || typing ? <Loader size={14} /> : null}
          value={search}
          error={error}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          data-testid="medication-search"
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={search.trim().length < 2}>
        <Combobox.Options mah={320} style={{ overflowY: 'auto' }}>
          {results.map((medication) => (
            <Combobox.Option value={medication.id} key={medication.id}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" fw={600}>
                    {medicationName(medication, lang)}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {[lang === 'en' ? medication.group_en : medication.group_fr, ...medication.brands]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </div>
                {medication.atc_code && (
                  <Badge variant="outline" radius="sm" style={{ flexShrink: 0 }}>
                    {medication.atc_code}
                  </Badge>
                )}
              </Group>
            </Combobox.Option>
          ))}
          {results.length === 0 && ready && !query.isFetching && !typing && (
            <Combobox.Empty>{t('search.none')}</Combobox.Empty>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
