/**
 * The tables of documents, shared by /documents and the patient record's tab: issued documents (number, kind,
 * date, author, status; view the PDF, cancel) and uploads (thumbnail, category, date, description; view,
 * download, delete). Both server-paginated; the viewer and the reason dialog are included.
 */
import type { TPatientDocument } from '@greensen/shared/contracts/documents';
import { ActionIcon, Anchor, Badge, Center, Group, Image, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconEye, IconFile, IconFileTypePdf, IconTrash, IconX } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PagedQueryTable } from '../clinical/components/PagedTable';
import { formatDate, formatDateTime } from '../format';
import { lazyComponent } from '../lazy-component';
import { useLocalizedPath } from '../use-localized-path';
import { downloadFile, type Page, patientDocumentFilePath, type TDocumentListItem, useFileBlob } from './api';
import { FileViewer, useObjectUrl, type ViewedFile } from './FileViewer';
import { issuedPdf } from './issued-pdf';

/** Taking a document back: its form (and the schema it validates with) loads when asked for (issue 38). */
const loadCancelDocumentModal = async () => ({
  default: (await import('./CancelDocumentModal')).CancelDocumentModal,
});
const CancelDocumentModal = lazyComponent(loadCancelDocumentModal);

type ListQuery<T> = {
  data: Page<T> | undefined;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
};

/** A table of one page of documents: the list's query, its page, and whether to show each one's patient. */
interface DocumentsTableProps<T> {
  query: ListQuery<T>;
  page: number;
  onPageChange: (page: number) => void;
  pageSize: number;
  showPatient?: boolean;
}

function PatientLink({ patient }: { patient: { id: string; full_name: string; record_number: string } }) {
  const to = useLocalizedPath();
  return (
    <Anchor component={Link} to={to(`/patients/${patient.id}`)} size="sm">
      {patient.full_name}
    </Anchor>
  );
}

export function IssuedDocumentsTable({
  query,
  page,
  onPageChange,
  pageSize,
  showPatient = true,
}: DocumentsTableProps<TDocumentListItem>) {
  const { t } = useTranslation('documents');
  const [viewing, setViewing] = useState<ViewedFile | null>(null);
  const [cancelling, setCancelling] = useState<{ type: 'issued'; id: string; label: string } | null>(null);
  return (
    <>
      <PagedQueryTable<TDocumentListItem>
        query={query}
        page={page}
        onPageChange={onPageChange}
        pageSize={pageSize}
        noRecordsText={t('list.empty')}
        columns={[
          {
            accessor: 'number',
            title: t('list.columns.number'),
            noWrap: true,
            render: (doc) => (
              <Anchor
                component="button"
                type="button"
                size="sm"
                fw={600}
                ff="monospace"
                onClick={() => setViewing(issuedPdf(doc, t(`kind.${doc.kind}`), t('issue.code')))}
              >
                {doc.number}
              </Anchor>
            ),
          },
          { accessor: 'kind', title: t('list.columns.kind'), render: (doc) => t(`kind.${doc.kind}`) },
          {
            accessor: 'issued_at',
            title: t('list.columns.date'),
            render: (doc) => formatDateTime(doc.issued_at),
          },
          ...(showPatient
            ? [
                {
                  accessor: 'patient',
                  title: t('list.columns.patient'),
                  render: (doc: TDocumentListItem) => <PatientLink patient={doc.patient} />,
                },
              ]
            : []),
          { accessor: 'author', title: t('list.columns.author'), render: (doc) => doc.author.full_name },
          {
            accessor: 'status',
            title: t('list.columns.status'),
            noWrap: true,
            render: (doc) => (
              <Badge color={doc.status === 'valid' ? 'green' : 'gray'} variant="light" size="sm">
                {t(`list.status.${doc.status}`)}
              </Badge>
            ),
          },
          {
            accessor: 'actions',
            title: '',
            textAlign: 'right',
            render: (doc) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label={t('patientTab.view')}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('patientTab.view')}
                    onClick={() => setViewing(issuedPdf(doc, t(`kind.${doc.kind}`), t('issue.code')))}
                  >
                    <IconEye size={16} />
                  </ActionIcon>
                </Tooltip>
                {doc.can.cancel && doc.status === 'valid' && (
                  <Tooltip label={t('patientTab.cancel')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('patientTab.cancel')}
                      onClick={() =>
                        setCancelling({
                          type: 'issued',
                          id: doc.id,
                          label: `${t(`kind.${doc.kind}`)} ${doc.number}`,
                        })
                      }
                    >
                      <IconX size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            ),
          },
        ]}
      />
      <FileViewer file={viewing} onClose={() => setViewing(null)} />
      {cancelling && (
        <Suspense fallback={null}>
          <CancelDocumentModal target={cancelling} onClose={() => setCancelling(null)} />
        </Suspense>
      )}
    </>
  );
}

function isImage(doc: TPatientDocument): boolean {
  return doc.viewable && doc.content_type.startsWith('image/');
}

/** A small preview of an uploaded image (fetched with the token); an icon for PDFs and HEIC photos. */
export function Thumbnail({ doc }: { doc: TPatientDocument }) {
  return (
    <FileThumbnail
      path={patientDocumentFilePath(doc.id)}
      contentType={doc.content_type}
      image={isImage(doc)}
      size={48}
    />
  );
}

/**
 * A preview of a stored image (fetched with the token, shown from an object URL re-typed as `contentType`), or
 * an icon: a PDF, a HEIC photo, any other file. Shared with the messaging's attachments.
 */
export function FileThumbnail({
  path,
  contentType,
  image,
  size,
}: {
  path: string;
  contentType: string;
  image: boolean;
  size: number;
}) {
  const query = useFileBlob(image ? path : null, 'inline');
  const url = useObjectUrl(query.data, contentType);
  if (image && url) {
    return <Image src={url} alt="" w={size} h={size} radius="sm" fit="cover" data-testid="thumbnail" />;
  }
  const Icon = contentType === 'application/pdf' ? IconFileTypePdf : IconFile;
  return (
    <Center w={size} h={size} bg="var(--mantine-color-default-hover)" style={{ borderRadius: 4 }}>
      <Icon size={Math.round(size / 2)} stroke={1.5} />
    </Center>
  );
}

export function uploadViewer(doc: TPatientDocument, title: string): ViewedFile {
  return {
    path: patientDocumentFilePath(doc.id),
    contentType: doc.content_type,
    fileName: doc.file_name,
    title,
  };
}

export function UploadedDocumentsTable({
  query,
  page,
  onPageChange,
  pageSize,
  showPatient = true,
}: DocumentsTableProps<TPatientDocument>) {
  const { t } = useTranslation('documents');
  const [viewing, setViewing] = useState<ViewedFile | null>(null);
  const [deleting, setDeleting] = useState<{ type: 'uploaded'; id: string; label: string } | null>(null);
  const title = (doc: TPatientDocument) => `${t(`category.${doc.category}`)} · ${doc.file_name}`;
  return (
    <>
      <PagedQueryTable<TPatientDocument>
        query={query}
        page={page}
        onPageChange={onPageChange}
        pageSize={pageSize}
        noRecordsText={showPatient ? t('list.empty') : t('patientTab.empty')}
        columns={[
          {
            accessor: 'thumbnail',
            title: '',
            width: 64,
            render: (doc) => <Thumbnail doc={doc} />,
          },
          {
            accessor: 'category',
            title: t('list.columns.category'),
            render: (doc) => (
              <div>
                <Text size="sm" fw={600}>
                  {t(`category.${doc.category}`)}
                </Text>
                <Text size="xs" c="dimmed" truncate maw={220}>
                  {doc.file_name}
                </Text>
              </div>
            ),
          },
          {
            accessor: 'document_date',
            title: t('list.columns.date'),
            render: (doc) => formatDate(doc.document_date ?? doc.uploaded_at),
          },
          ...(showPatient
            ? [
                {
                  accessor: 'patient',
                  title: t('list.columns.patient'),
                  render: (doc: TPatientDocument) => <PatientLink patient={doc.patient} />,
                },
              ]
            : []),
          {
            accessor: 'description',
            title: t('list.columns.description'),
            render: (doc) => (
              <Text size="sm" lineClamp={2}>
                {doc.description ?? '—'}
              </Text>
            ),
          },
          {
            accessor: 'uploaded_by',
            title: t('list.columns.author'),
            render: (doc) => doc.uploaded_by.full_name,
          },
          {
            accessor: 'actions',
            title: '',
            textAlign: 'right',
            render: (doc) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                {doc.viewable && (
                  <Tooltip label={t('patientTab.view')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('patientTab.view')}
                      onClick={() => setViewing(uploadViewer(doc, title(doc)))}
                    >
                      <IconEye size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
                <Tooltip label={t('patientTab.download')}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('patientTab.download')}
                    onClick={() => void downloadFile(patientDocumentFilePath(doc.id), doc.file_name)}
                  >
                    <IconDownload size={16} />
                  </ActionIcon>
                </Tooltip>
                {doc.can.delete && (
                  <Tooltip label={t('patientTab.delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('patientTab.delete')}
                      onClick={() => setDeleting({ type: 'uploaded', id: doc.id, label: title(doc) })}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            ),
          },
        ]}
      />
      <FileViewer file={viewing} onClose={() => setViewing(null)} />
      {deleting && (
        <Suspense fallback={null}>
          <CancelDocumentModal target={deleting} onClose={() => setDeleting(null)} />
        </Suspense>
      )}
    </>
  );
}
