/**
 * The variables a kind's body may use (from the server), each a button that inserts it at the cursor of the body:
 * `{{ patient.full_name }}` for a value, a `{% for item in … %}` loop for a list, `{{ item.field }}` for a field of
 * a list's items.
 */

import type { DocumentKind } from '@greensen/shared/contracts/documents';
import { Badge, ScrollArea, Skeleton, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useTemplateVariables } from '../../../lib/documents/api';

/** The text a click inserts for a variable path of the given type. */
export function snippetFor(path: string, type: string): string {
  const item = /\[\]\.([\w.]+)$/.exec(path);
  if (item) return `{{ item.${item[1]} }}`;
  if (type === 'list') return `{% for item in ${path} %}\n- {{ item }}\n{% endfor %}`;
  return `{{ ${path} }}`;
}

export function VariablesPanel({
  kind,
  onInsert,
}: {
  kind: DocumentKind;
  onInsert: (snippet: string) => void;
}) {
  const { t, i18n } = useTranslation('documents');
  const query = useTemplateVariables(kind);
  const en = i18n.language === 'en';
  return (
    <Stack gap="xs" data-testid="template-variables">
      <Text fw={600} size="sm">
        {t('templates.admin.variables')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('templates.admin.variablesHint')}
      </Text>
      {query.isPending ? (
        <Skeleton h={200} />
      ) : (
        <ScrollArea.Autosize mah={480} type="auto" viewportProps={{ tabIndex: 0 }}>
          <Stack gap={2}>
            {(query.data?.variables ?? []).map((variable) => (
              <Tooltip
                key={variable.path}
                label={variable.example ?? (en ? variable.label_en : variable.label_fr)}
                position="left"
                multiline
                maw={260}
              >
                <UnstyledButton
                  onClick={() => onInsert(snippetFor(variable.path, variable.type))}
                  data-variable={variable.path}
                  px={6}
                  py={4}
                  style={{ borderRadius: 'var(--mantine-radius-sm)', display: 'block', width: '100%' }}
                >
                  <Text
                    component="span"
                    size="xs"
                    ff="monospace"
                    c="greensen"
                    style={{ display: 'block', overflowWrap: 'anywhere' }}
                  >
                    {variable.path}
                    {variable.type === 'list' && (
                      <Badge component="span" ml={4} size="xs" variant="light">
                        {t('templates.admin.loop')}
                      </Badge>
                    )}
                  </Text>
                  <Text component="span" size="xs" c="dimmed" display="block">
                    {en ? variable.label_en : variable.label_fr}
                  </Text>
                </UnstyledButton>
              </Tooltip>
            ))}
          </Stack>
          {query.data && query.data.filters.length > 0 && (
            <Text size="xs" c="dimmed" mt="xs">
              {t('templates.admin.filtersList', { filters: query.data.filters.join(', ') })}
            </Text>
          )}
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
