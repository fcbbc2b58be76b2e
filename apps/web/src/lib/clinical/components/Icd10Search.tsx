/**
 * ICD-10 search for a diagnosis: a debounced search (code prefix or words, French or English) listing code
 * and label in the UI language, common codes first (the server's order), with a "fréquent" mark. When
 * nothing fits, the typed text can be kept as a free-text (uncoded) diagnosis where the form allows one
 * (`onFreeText`). Used by consultations and by inpatient stays (provisional, discharge and death diagnoses).
 */
import type { TIcd10Entry } from '@greensen/shared/contracts/icd10';
import { Badge, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIcd10Search } from '../api/search-icd10';

export function Icd10Search({
  onPick,
  onFreeText,
  error,
  label,
  withAsterisk,
}: {
  onPick: (entry: TIcd10Entry) => void;
  /** Keep the typed words as an uncoded diagnosis; without it only a code can be picked. */
  onFreeText?: (text: string) => void;
  error?: string | null;
  /** Defaults to "Rechercher un diagnostic (CIM-10)". */
  label?: string;
  withAsterisk?: boolean;
}) {
  const { t } = useTranslation('consultations');
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const query = useIcd10Search(debounced);
  const results = query.results;
  const typing = search.trim() !== debounced.trim();

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(code) => {
        const entry = results.find((r) => r.code === code);
        if (entry) {
          onPick(entry);
          setSearch('');
          combobox.closeDropdown();
        }
      }}
    >
      <Combobox.Target>
        <TextInput
          label={label ?? t('diagnoses.search')}
          withAsterisk={withAsterisk}
          placeholder={t('diagnoses.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          rightSection={query.isFetching || typing ? <Loader size={14} /> : null}
          value={search}
          error={error}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          data-testid="icd10-search"
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={search.trim().length < 2}>
        <Combobox.Options mah={320} style={{ overflowY: 'auto' }}>
          {results.map((entry) => (
            <Combobox.Option value={entry.code} key={entry.code}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge variant="outline" radius="sm" style={{ flexShrink: 0 }}>
                  {entry.code}
                </Badge>
                <Text size="sm" style={{ flex: 1 }}>
                  {entry.label}
                </Text>
                {entry.common && (
                  <Badge size="xs" color="teal" variant="light" style={{ flexShrink: 0 }}>
                    {t('diagnoses.common')}
                  </Badge>
                )}
              </Group>
            </Combobox.Option>
          ))}
          {results.length === 0 && !query.isFetching && !typing && (
            <Combobox.Empty>{t('diagnoses.noCode')}</Combobox.Empty>
          )}
        </Combobox.Options>
        {onFreeText && search.trim().length >= 3 && (
          <Combobox.Footer>
            <Text
              size="sm"
              c="orange"
              style={{ cursor: 'pointer' }}
              role="button"
              tabIndex={0}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => {
                onFreeText(search.trim());
                setSearch('');
                combobox.closeDropdown();
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  onFreeText(search.trim());
                  setSearch('');
                  combobox.closeDropdown();
                }
              }}
            >
              {t('diagnoses.useFreeText', { text: search.trim() })}
            </Text>
          </Combobox.Footer>
        )}
      </Combobox.Dropdown>
    </Combobox>
  );
}
