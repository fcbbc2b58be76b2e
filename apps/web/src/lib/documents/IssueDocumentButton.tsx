/**
 * "Imprimer / émettre" (issue 19), placed on every page that has something to print (consultation, prescription,
 * validated exam, stay): choose the kind and the language (the user's by default) and, if several, the model; the
 * server prepares the text (shown as paper; editable when the kind allows it); "Issue the PDF" signs, numbers and
 * stores it, then shows its number and verification code and opens it in the viewer. The documents already issued
 * from the same source are listed under it, to re-print (the stored file, the same bytes).
 */
import type { TDocument, TDocumentDraft, TDocumentSource } from '@greensen/shared/contracts/documents';
import { isLanguage } from '@greensen/shared/domain/constants';
import {
  DOCUMENT_LANGUAGES,
  type DocumentKind,
  type DocumentLanguage,
} from '@greensen/shared/domain/documents';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { IconCircleCheck, IconFileText, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../api-client';
import { formatDateTime } from '../format';
import { useLocalizedPath } from '../use-localized-path';
import { documentPdfPath, type TDocumentListItem, useDocuments, useIssueDocument, useTemplates } from './api';
import { FileViewer, type ViewedFile } from './FileViewer';
import { HtmlPaper } from './HtmlPaper';
import { issuedPdf } from './issued-pdf';
import { useDocumentRights } from './rights';

function errorText(error: unknown): string | null {
  if (!isApiError(error)) return null;
  if (error.body && typeof error.body === 'object') {
    for (const value of Object.values(error.body)) {
      if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
    }
  }
  return error.message;
}

function DraftText({
  draft,
  onIssue,
  issuing,
  error,
}: {
  draft: TDocumentDraft;
  onIssue: (text: string | null) => void;
  issuing: boolean;
  error: string | null;
}) {
  const { t } = useTranslation('documents');
  const [text, setText] = useState(draft.text);
  return (
    <Stack gap="sm">
      {draft.editable ? (
        <>
          <Text size="sm" c="dimmed">
            {t('issue.editable')}
          </Text>
          <Textarea
            label={t('issue.text')}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            autosize
            minRows={8}
            maxRows={18}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
            data-testid="draft-text"
          />
        </>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {t('issue.notEditable')}
          </Text>
          <HtmlPaper html={draft.html} lang={draft.language} title={t('issue.text')} height={420} />
        </>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button
          leftSection={<IconPrinter size={16} />}
          loading={issuing}
          onClick={() => onIssue(draft.editable && text !== draft.text ? text : null)}
        >
          {t('issue.issue')}
        </Button>
      </Group>
    </Stack>
  );
}

function IssuedPanel({ doc, onOpen }: { doc: TDocument; onOpen: () => void }) {
  const { t } = useTranslation('documents');
  const to = useLocalizedPath();
  return (
    <Alert
      color="green"
      icon={<IconCircleCheck size={18} />}
      title={t('issue.issued')}
      data-testid="issued-document"
    >
      <Stack gap={6}>
        <Text size="sm" fw={700} data-testid="issued-number">
          {t('issue.number', { number: doc.number })}
        </Text>
        <Text size="sm">
          {t('issue.code')} :{' '}
          <Text span ff="monospace" fw={700} data-testid="issued-code">
            {doc.verification_code}
          </Text>{' '}
          ·{' '}
          <Anchor href={to(doc.verification_path)} target="_blank" rel="noopener noreferrer" size="sm">
            {doc.verification_path}
          </Anchor>
        </Text>
        <Group>
          <Button size="xs" leftSection={<IconFileText size={14} />} onClick={onOpen}>
            {t('issue.open')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function IssuedList({
  source,
  onOpen,
}: {
  source: TDocumentSource;
  onOpen: (doc: TDocumentListItem) => void;
}) {
  const { t } = useTranslation('documents');
  const query = useDocuments({ sourceType: source.type, source: source.id, page: 1, pageSize: 20 });
  const docs = query.data?.results ?? [];
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm">
        {t('issue.existing')}
      </Text>
      {query.isPending ? (
        <Skeleton h={28} />
      ) : docs.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('issue.none')}
        </Text>
      ) : (
        docs.map((doc) => (
          <Group key={doc.id} justify="space-between" gap="xs" wrap="nowrap" data-testid="issued-row">
            <Text size="sm" style={{ minWidth: 0 }} truncate>
              {t(`kind.${doc.kind}`)} · {doc.number} · {formatDateTime(doc.issued_at)}
              {doc.status === 'cancelled' && (
                <Badge ml="xs" color="gray" size="xs">
                  {t('issue.cancelled')}
                </Badge>
              )}
            </Text>
            <Button size="compact-xs" variant="light" onClick={() => onOpen(doc)}>
              {t('issue.reprint')}
            </Button>
          </Group>
        ))
      )}
    </Stack>
  );
}

function IssueDocumentModal({
  source,
  kinds,
  defaultKind,
  onClose,
}: {
  source: TDocumentSource;
  kinds: DocumentKind[];
  defaultKind: DocumentKind;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('documents');
  const [kind, setKind] = useState<DocumentKind>(defaultKind);
  const [language, setLanguage] = useState<DocumentLanguage>(
    isLanguage(i18n.language) ? i18n.language : 'fr',
  );
  const [template, setTemplate] = useState<string | null>(null);
  const [issued, setIssued] = useState<TDocument | null>(null);
  const [viewing, setViewing] = useState<ViewedFile | null>(null);
  const templates = useTemplates({ kind, language, page: 1, pageSize: 50 });
  const options = templates.data?.results ?? [];
  const chosen = template ?? options.find((item) => item.active)?.id ?? null;
  const draft = useQuery({
    queryKey: ['document-draft', source, kind, language, chosen] as const,
    queryFn: ({ signal }) =>
      api.post<TDocumentDraft>(
        'documents/draft/',
        { kind, source, language, template: chosen },
        { signal, silent: true },
      ),
    enabled: !templates.isPending && chosen !== null && issued === null,
    retry: false,
    gcTime: 0,
  });
  const issue = useIssueDocument();
  const open = (doc: Pick<TDocumentListItem, 'id' | 'number' | 'kind' | 'verification_code' | 'status'>) =>
    setViewing(issuedPdf(doc, t(`kind.${doc.kind}`), t('issue.code')));

  return (
    <>
      <Modal
        opened
        onClose={onClose}
        title={t('issue.title')}
        size="xl"
        closeOnEscape={viewing === null}
        data-testid="issue-document"
      >
        <Stack gap="md">
          {issued ? (
            <IssuedPanel doc={issued} onOpen={() => open(issued)} />
          ) : (
            <>
              <Group grow align="flex-start" wrap="wrap">
                <Select
                  label={t('issue.kind')}
                  data={kinds.map((value) => ({ value, label: t(`kind.${value}`) }))}
                  value={kind}
                  allowDeselect={false}
                  onChange={(value) => {
                    if (!value) return;
                    setKind(value as DocumentKind);
                    setTemplate(null);
                  }}
                />
                <Select
                  label={t('issue.language')}
                  data={DOCUMENT_LANGUAGES.map((value) => ({ value, label: t(`language.${value}`) }))}
                  value={language}
                  allowDeselect={false}
                  onChange={(value) => {
                    if (!value) return;
                    setLanguage(value as DocumentLanguage);
                    setTemplate(null);
                  }}
                />
                {options.length > 1 && (
                  <Select
                    label={t('issue.template')}
                    data={options.map((item) => ({ value: item.id, label: item.name }))}
                    value={chosen}
                    allowDeselect={false}
                    onChange={setTemplate}
                  />
                )}
              </Group>
              {!templates.isPending && options.length === 0 ? (
                <Alert color="yellow">{t('issue.noTemplate')}</Alert>
              ) : draft.isError ? (
                <Alert color="red" role="alert">
                  {errorText(draft.error)}
                </Alert>
              ) : !draft.data ? (
                <Skeleton h={260} data-testid="draft-loading" />
              ) : (
                <DraftText
                  key={`${kind}-${language}-${chosen}`}
                  draft={draft.data}
                  issuing={issue.isPending}
                  error={issue.isError ? errorText(issue.error) : null}
                  onIssue={(text) =>
                    issue.mutate(
                      { kind, source, language, template: chosen, text },
                      {
                        onSuccess: (doc) => {
                          setIssued(doc);
                          open(doc);
                        },
                      },
                    )
                  }
                />
              )}
            </>
          )}
          <Paper withBorder radius="md" p="sm">
            <IssuedList source={source} onOpen={open} />
          </Paper>
        </Stack>
      </Modal>
      <FileViewer file={viewing} onClose={() => setViewing(null)} />
    </>
  );
}

/**
 * The button and its dialog. Shown only when the user issues at least one kind printed from `source.type`;
 * `kinds` narrows the kinds offered (a validated exam: its results report), `defaultKind` is preselected.
 */
export function IssueDocumentButton({
  source,
  kinds: only,
  defaultKind,
  variant = 'default',
}: {
  source: TDocumentSource;
  kinds?: readonly DocumentKind[];
  defaultKind?: DocumentKind;
  variant?: 'default' | 'filled' | 'light';
}) {
  const { t } = useTranslation('documents');
  const { kindsFor } = useDocumentRights();
  const [opened, setOpened] = useState(false);
  const kinds = kindsFor(source.type).filter((kind) => !only || only.includes(kind));
  const first = kinds[0];
  if (!first) return null;
  return (
    <>
      <Button
        variant={variant}
        leftSection={<IconPrinter size={16} />}
        onClick={() => setOpened(true)}
        data-testid="issue-document-button"
      >
        {t('issue.button')}
      </Button>
      {opened && (
        <IssueDocumentModal
          source={source}
          kinds={kinds}
          defaultKind={defaultKind && kinds.includes(defaultKind) ? defaultKind : first}
          onClose={() => setOpened(false)}
        />
      )}
    </>
  );
}
