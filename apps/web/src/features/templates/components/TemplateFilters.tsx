/** The kind and language filters of the model lists. */
import {
  DOCUMENT_KINDS,
  DOCUMENT_LANGUAGES,
  type DocumentKind,
  type DocumentLanguage,
} from '@greensen/shared/contracts/documents';
import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function KindFilter({
  value,
  onChange,
}: {
  value: DocumentKind | null;
  onChange: (value: DocumentKind | null) => void;
}) {
  const { t } = useTranslation('documents');
  return (
    <Select
      aria-label={t('templates.filters.kind')}
      placeholder={t('templates.filters.allKinds')}
      data={DOCUMENT_KINDS.map((kind) => ({ value: kind, label: t(`kind.${kind}`) }))}
      value={value}
      onChange={(next) => onChange(next as DocumentKind | null)}
      clearable
      w={230}
    />
  );
}

export function LanguageFilter({
  value,
  onChange,
}: {
  value: DocumentLanguage | null;
  onChange: (value: DocumentLanguage | null) => void;
}) {
  const { t } = useTranslation('documents');
  return (
    <Select
      aria-label={t('templates.filters.language')}
      placeholder={t('templates.filters.allLanguages')}
      data={DOCUMENT_LANGUAGES.map((lang) => ({ value: lang, label: t(`language.${lang}`) }))}
      value={value}
      onChange={(next) => onChange(next as DocumentLanguage | null)}
      clearable
      w={170}
    />
  );
}
