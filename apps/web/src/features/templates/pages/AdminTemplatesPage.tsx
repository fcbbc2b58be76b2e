/**
 * /admin/templates (issue 19, administrators and head doctors): the models on the left (filtered by kind and
 * language); the chosen one (`?id=`) on the right. A Greensen model is read-only: "Copy and adapt" makes the
 * hospital's copy. The hospital's model is edited in a code-like area with the kind's variables beside it (click to
 * insert); saving a body the server refuses shows the line and the reason; "Preview" renders the current body with
 * demo data; "Activate" makes it the one printed for its kind and language; "Archive" withdraws it.
 */
import {
  DOCUMENT_KINDS,
  type DocumentKind,
  type DocumentLanguage,
  PAPER_SIZES,
  type PaperSize,
  type TDocumentTemplate,
  type TTemplatePreview,
} from '@greensen/shared/contracts/documents';
import {
  Alert,
  Button,
  Code,
  Grid,
  Group,
  NavLink,
  Pagination,
  Paper,
  ScrollArea,
  Select,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconArchive,
  IconCircleCheck,
  IconCopy,
  IconDeviceFloppy,
  IconEye,
  IconLock,
} from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import {
  type TemplateProblem,
  templateProblem,
  useCreateTemplate,
  useTemplate,
  useTemplateAction,
  useTemplates,
  useUpdateTemplate,
} from '../../../lib/documents/api';
import { useDocumentRights } from '../../../lib/documents/rights';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { toast } from '../../../lib/toast';
import { TemplateBadges } from '../components/TemplateBadges';
import { KindFilter, LanguageFilter } from '../components/TemplateFilters';
import { previewOf, TemplatePreview } from '../components/TemplatePreview';
import { TemplateProblemAlert } from '../components/TemplateProblemAlert';
import { VariablesPanel } from '../components/VariablesPanel';

const PAGE_SIZE = 25;

function TemplateList({ selected, onSelect }: { selected: string | null; onSelect: (id: string) => void }) {
  const { t } = useTranslation('documents');
  const [kind, setKind] = useState<DocumentKind | null>(null);
  const [language, setLanguage] = useState<DocumentLanguage | null>(null);
  const [page, setPage] = useState(1);
  const query = useTemplates({ kind, language, page, pageSize: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil((query.data?.count ?? 0) / PAGE_SIZE));
  const sorted = [...(query.data?.results ?? [])].sort(
    (a, b) => DOCUMENT_KINDS.indexOf(a.kind) - DOCUMENT_KINDS.indexOf(b.kind),
  );
  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap="xs">
        <Group gap="xs" grow>
          <KindFilter
            value={kind}
            onChange={(value) => {
              setKind(value);
              setPage(1);
            }}
          />
          <LanguageFilter
            value={language}
            onChange={(value) => {
              setLanguage(value);
              setPage(1);
            }}
          />
        </Group>
        {query.isError ? (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ) : query.isPending ? (
          <Skeleton h={300} />
        ) : sorted.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('templates.empty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={620} type="auto" viewportProps={{ tabIndex: 0 }}>
            <Stack gap={2} data-testid="admin-template-list">
              {sorted.map((item) => (
                <NavLink
                  key={item.id}
                  active={item.id === selected}
                  onClick={() => onSelect(item.id)}
                  label={item.name}
                  description={
                    <Group gap={4} mt={2}>
                      <Text size="xs" c="dimmed">
                        {t(`kind.${item.kind}`)} · {item.language.toUpperCase()} · {item.paper}
                      </Text>
                      <TemplateBadges template={item} />
                    </Group>
                  }
                  data-template={item.id}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        {pages > 1 && <Pagination size="sm" total={pages} value={page} onChange={setPage} />}
      </Stack>
    </Paper>
  );
}

function insertAt(area: HTMLTextAreaElement | null, value: string, snippet: string): [string, number] {
  const start = area?.selectionStart ?? value.length;
  const end = area?.selectionEnd ?? value.length;
  return [value.slice(0, start) + snippet + value.slice(end), start + snippet.length];
}

function Actions({ template, onCopied }: { template: TDocumentTemplate; onCopied: (id: string) => void }) {
  const { t } = useTranslation('documents');
  const action = useTemplateAction(template.id);
  const create = useCreateTemplate();
  const run = (kind: 'activate' | 'archive') =>
    action.mutate(kind, {
      onSuccess: () =>
        toast({
          kind: 'success',
          title: kind === 'activate' ? t('templates.admin.activated') : t('templates.admin.archived'),
        }),
    });
  return (
    <Group gap="xs">
      {template.shipped && (
        <Button
          leftSection={<IconCopy size={16} />}
          loading={create.isPending}
          onClick={() =>
            create.mutate(
              {
                kind: template.kind,
                language: template.language,
                paper: template.paper,
                name: t('templates.admin.copyName', {
                  name: template.name.replace(/\s*\(Greensen\)$/, ''),
                }).slice(0, 120),
                description: template.description,
                body: template.body,
                based_on: template.id,
              },
              {
                onSuccess: (copy) => {
                  toast({ kind: 'success', title: t('templates.admin.copied') });
                  onCopied(copy.id);
                },
              },
            )
          }
        >
          {t('templates.admin.copy')}
        </Button>
      )}
      {template.can.activate && !template.active && !template.archived && (
        <Button
          variant="light"
          color="green"
          leftSection={<IconCircleCheck size={16} />}
          loading={action.isPending && action.variables === 'activate'}
          onClick={() => run('activate')}
        >
          {t('templates.admin.activate')}
        </Button>
      )}
      {template.can.archive && !template.archived && (
        <Button
          variant="default"
          color="orange"
          leftSection={<IconArchive size={16} />}
          loading={action.isPending && action.variables === 'archive'}
          onClick={() => run('archive')}
        >
          {t('templates.admin.archive')}
        </Button>
      )}
    </Group>
  );
}

function Editor({ template }: { template: TDocumentTemplate }) {
  const { t } = useTranslation('documents');
  const update = useUpdateTemplate(template.id);
  const area = useRef<HTMLTextAreaElement>(null);
  const [name, setName] = useState(template.name);
  const [paper, setPaper] = useState<PaperSize>(template.paper);
  const [body, setBody] = useState(template.body);
  const [problem, setProblem] = useState<TemplateProblem | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const [preview, setPreview] = useState<TTemplatePreview | null>(null);

  function insert(snippet: string) {
    const [next, caret] = insertAt(area.current, body, snippet);
    setBody(next);
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(caret, caret);
    });
  }

  function save() {
    setProblem(null);
    setGeneral(null);
    // Through the promise, not mutate's callbacks: the saved version re-keys this editor (a new mount), and
    // mutate's callbacks are dropped once their component is gone, so the confirmation was lost now and then.
    update.mutateAsync({ version: template.version, name, paper, body }).then(
      () => toast({ kind: 'success', title: t('templates.admin.saved') }),
      (error: unknown) => {
        if (!isApiError(error)) return;
        if (error.status === 409) setGeneral(t('templates.admin.conflict'));
        else if (error.status === 400) {
          const found = templateProblem(error.body);
          if (found) setProblem(found);
          else setGeneral(error.message);
        } else setGeneral(error.message);
      },
    );
  }

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <Stack gap="sm">
          <Group grow align="flex-start" wrap="wrap">
            <TextInput
              label={t('templates.admin.name')}
              value={name}
              maxLength={120}
              onChange={(event) => setName(event.currentTarget.value)}
            />
            <Select
              label={t('templates.admin.paper')}
              data={PAPER_SIZES.map((value) => ({ value, label: value }))}
              value={paper}
              allowDeselect={false}
              onChange={(value) => value && setPaper(value as PaperSize)}
            />
          </Group>
          <Textarea
            ref={area}
            label={t('templates.admin.body')}
            value={body}
            onChange={(event) => setBody(event.currentTarget.value)}
            autosize
            minRows={16}
            maxRows={30}
            spellCheck={false}
            error={problem ? ' ' : undefined}
            styles={{
              input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13, lineHeight: 1.5 },
            }}
            data-testid="template-editor"
          />
          {problem && <TemplateProblemAlert problem={problem} />}
          {general && (
            <Alert color="red" role="alert">
              {general}
            </Alert>
          )}
          <Group gap="xs">
            <Button leftSection={<IconDeviceFloppy size={16} />} loading={update.isPending} onClick={save}>
              {t('templates.admin.save')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconEye size={16} />}
              onClick={() => setPreview({ kind: template.kind, language: template.language, paper, body })}
            >
              {t('templates.admin.preview')}
            </Button>
          </Group>
          {preview && (
            <Paper withBorder radius="md" p="sm">
              <Group justify="space-between" mb="xs">
                <Text fw={600} size="sm">
                  {t('templates.detail.preview')}
                </Text>
                <Button size="compact-xs" variant="subtle" onClick={() => setPreview(null)}>
                  {t('templates.admin.close')}
                </Button>
              </Group>
              <TemplatePreview input={preview} />
            </Paper>
          )}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <Paper withBorder radius="md" p="sm">
          <VariablesPanel kind={template.kind} onInsert={insert} />
        </Paper>
      </Grid.Col>
    </Grid>
  );
}

function SelectedTemplate({ id, onSelect }: { id: string; onSelect: (id: string) => void }) {
  const { t } = useTranslation('documents');
  const query = useTemplate(id);
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <Skeleton h={420} />;
  const template = query.data;
  return (
    <Stack gap="sm" data-testid="admin-template">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Title order={3}>{template.name}</Title>
            <TemplateBadges template={template} />
          </Group>
          <Text size="sm" c="dimmed">
            {t(`kind.${template.kind}`)} · {t(`language.${template.language}`)} · {template.paper}
          </Text>
        </div>
        <Actions template={template} onCopied={onSelect} />
      </Group>
      {template.can.edit ? (
        <Editor key={`${template.id}-${template.version}`} template={template} />
      ) : (
        <>
          <Alert color="gray" icon={<IconLock size={16} />}>
            {t('templates.admin.shippedReadOnly')}
          </Alert>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 6 }}>
              <ScrollArea.Autosize mah={560}>
                <Code block style={{ whiteSpace: 'pre-wrap' }} data-testid="template-body">
                  {template.body}
                </Code>
              </ScrollArea.Autosize>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 6 }}>
              <TemplatePreview input={previewOf(template)} />
            </Grid.Col>
          </Grid>
        </>
      )}
    </Stack>
  );
}

export default function AdminTemplatesPage() {
  const { t } = useTranslation('documents');
  const { manageTemplates } = useDocumentRights();
  const [params, setParams] = useSearchParams();
  const selected = params.get('id');
  const select = (id: string) => setParams({ id });
  return (
    <Stack gap="md" data-testid="admin-templates-page">
      <PageHeader title={t('templates.admin.title')} subtitle={t('templates.admin.subtitle')} />
      {!manageTemplates ? (
        <Alert color="yellow">{t('templates.admin.managersOnly')}</Alert>
      ) : (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <TemplateList selected={selected} onSelect={select} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            {selected ? (
              <SelectedTemplate key={selected} id={selected} onSelect={select} />
            ) : (
              <Paper withBorder radius="md" p="xl">
                <Text c="dimmed" ta="center">
                  {t('templates.admin.select')}
                </Text>
              </Paper>
            )}
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
