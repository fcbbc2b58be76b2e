/**
 * Documents (issue 19), shared by the templates and documents pages, the patient record's tab and the "Print /
 * issue" action of the consultation, prescription, exam and stay pages: document models (list, one, variables,
 * copy, edit, activate, archive, preview), issued documents (draft, issue, list, PDF, cancel), patient uploads
 * (list, upload, file, delete) and the public verification.
 */
import type {
  DocumentKind,
  DocumentLanguage,
  DocumentSourceType,
  PatientDocumentCategory,
  TDocument,
  TDocumentDraft,
  TDocumentDraftCreate,
  TDocumentIssue,
  TDocumentTemplate,
  TDocumentVerification,
  TPatientDocument,
  TTemplateCreate,
  TTemplatePreview,
  TTemplateUpdate,
  ZDocumentListItem,
  ZTemplateListItem,
  ZTemplatePreviewResult,
  ZTemplateVariables,
} from '@greensen/shared/contracts/documents';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { useAuthStore } from '../../stores/auth';
import { api } from '../api-client';

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export type TTemplateListItem = z.infer<typeof ZTemplateListItem>;
export type TTemplateVariables = z.infer<typeof ZTemplateVariables>;
export type TTemplatePreviewResult = z.infer<typeof ZTemplatePreviewResult>;
export type TDocumentListItem = z.infer<typeof ZDocumentListItem>;

export const TEMPLATES_KEY = ['document-templates'] as const;
export const DOCUMENTS_KEY = ['documents'] as const;
export const PATIENT_DOCUMENTS_KEY = ['patient-documents'] as const;

function useHospitalId(): string | null {
  return useAuthStore((state) => state.currentHospitalId);
}

// Templates ----------------------------------------------------------------------------------------------

export interface TemplateFilters {
  kind?: DocumentKind | null;
  language?: DocumentLanguage | null;
  origin?: 'all' | 'shipped' | 'hospital';
  active?: boolean;
  archived?: boolean;
  page: number;
  pageSize: number;
}

export function useTemplates(filters: TemplateFilters, enabled = true) {
  const hospitalId = useHospitalId();
  return useQuery({
    queryKey: [...TEMPLATES_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TTemplateListItem>>('document-templates/', {
        query: {
          kind: filters.kind,
          language: filters.language,
          origin: filters.origin ?? 'all',
          active: filters.active === undefined ? undefined : String(filters.active),
          archived: filters.archived ? 'true' : undefined,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useTemplate(id: string | null) {
  const hospitalId = useHospitalId();
  return useQuery({
    queryKey: [...TEMPLATES_KEY, hospitalId, 'one', id] as const,
    queryFn: ({ signal }) => api.get<TDocumentTemplate>(`document-templates/${id}/`, { signal }),
    enabled: id !== null,
  });
}

export function useTemplateVariables(kind: DocumentKind | null) {
  const hospitalId = useHospitalId();
  return useQuery({
    queryKey: [...TEMPLATES_KEY, hospitalId, 'variables', kind] as const,
    queryFn: ({ signal }) =>
      api.get<TTemplateVariables>('document-templates/variables/', { query: { kind }, signal }),
    enabled: kind !== null,
    staleTime: 10 * 60_000,
  });
}

/** The server's rendering of a body with demo data (silent: a refused body is shown by the caller). */
export function useTemplatePreview(input: TTemplatePreview | null) {
  const hospitalId = useHospitalId();
  return useQuery({
    queryKey: [...TEMPLATES_KEY, hospitalId, 'preview', input] as const,
    queryFn: ({ signal }) =>
      api.post<TTemplatePreviewResult>('document-templates/preview/', input, { signal, silent: true }),
    enabled: input !== null,
    retry: false,
    placeholderData: keepPreviousData,
  });
}

function invalidateTemplates(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY });
}

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TTemplateCreate) => api.post<TDocumentTemplate>('document-templates/', body),
    onSuccess: () => invalidateTemplates(queryClient),
  });
}

export function useUpdateTemplate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TTemplateUpdate) => api.patch<TDocumentTemplate>(`document-templates/${id}/`, body),
    onSuccess: () => invalidateTemplates(queryClient),
  });
}

export function useTemplateAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: 'activate' | 'archive') =>
      api.post<TDocumentTemplate>(`document-templates/${id}/${action}/`, {}),
    onSuccess: () => invalidateTemplates(queryClient),
  });
}

/** Where a refused body fails: the line (and column) and the server's translated reason. */
export interface TemplateProblem {
  line: number | null;
  column: number | null;
  reason: string | null;
  message: string;
}

function firstString(value: unknown): string | null {
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return typeof value === 'string' ? value : null;
}

/** The template error of a 400 answer (`body`, `template_line`, `template_column`, `template_reason`). */
export function templateProblem(body: unknown): TemplateProblem | null {
  if (!body || typeof body !== 'object') return null;
  const fields = body as Record<string, unknown>;
  const message = firstString(fields.body);
  if (!message) return null;
  const line = Number(firstString(fields.template_line));
  const column = Number(firstString(fields.template_column));
  return {
    message,
    line: Number.isFinite(line) && line > 0 ? line : null,
    column: Number.isFinite(column) && column > 0 ? column : null,
    reason: firstString(fields.template_reason),
  };
}

// Issued documents ---------------------------------------------------------------------------------------

export interface DocumentFilters {
  patient?: string | null;
  kind?: DocumentKind | null;
  status?: 'all' | 'valid' | 'cancelled';
  sourceType?: DocumentSourceType | null;
  source?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  search?: string | null;
  page: number;
  pageSize: number;
}

/** The list's query options (the documents page's first screen is started from them as the app starts: issue 38). */
export function documentsQueryOptions(hospitalId: string | null, filters: DocumentFilters) {
  return queryOptions({
    queryKey: [...DOCUMENTS_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TDocumentListItem>>('documents/', {
        query: {
          patient: filters.patient,
          kind: filters.kind,
          status: filters.status ?? 'all',
          source_type: filters.sourceType,
          source: filters.source,
          date_from: filters.dateFrom,
          date_to: filters.dateTo,
          search: filters.search,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
  });
}

export function useDocuments(filters: DocumentFilters, enabled = true) {
  const hospitalId = useHospitalId();
  return useQuery({
    ...documentsQueryOptions(hospitalId, filters),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useDocumentDraft() {
  return useMutation({
    mutationFn: (body: TDocumentDraftCreate) => api.post<TDocumentDraft>('documents/draft/', body),
  });
}

export function useIssueDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TDocumentIssue) => api.post<TDocument>('documents/', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DOCUMENTS_KEY }),
  });
}

export function useCancelDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api.post<TDocument>(`documents/${id}/cancel/`, { reason }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DOCUMENTS_KEY }),
  });
}

/** The stored PDF of an issued document (the same bytes every time), for the viewer. */
export function documentPdfPath(id: string): string {
  return `documents/${id}/pdf/`;
}

// Patient documents (uploads) ----------------------------------------------------------------------------

export interface PatientDocumentFilters {
  patient?: string | null;
  category?: PatientDocumentCategory | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  page: number;
  pageSize: number;
}

export function usePatientDocuments(filters: PatientDocumentFilters, enabled = true) {
  const hospitalId = useHospitalId();
  return useQuery({
    queryKey: [...PATIENT_DOCUMENTS_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TPatientDocument>>('patient-documents/', {
        query: {
          patient: filters.patient,
          category: filters.category,
          date_from: filters.dateFrom,
          date_to: filters.dateTo,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export interface UploadInput {
  patient: string;
  category: PatientDocumentCategory;
  documentDate: string | null;
  description: string;
  file: File;
}

export function useUploadPatientDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UploadInput) => {
      const form = new FormData();
      form.append('patient', input.patient);
      form.append('category', input.category);
      if (input.documentDate) form.append('document_date', input.documentDate);
      if (input.description.trim()) form.append('description', input.description.trim());
      form.append('file', input.file, input.file.name);
      return api.post<TPatientDocument>('patient-documents/', form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PATIENT_DOCUMENTS_KEY }),
  });
}

export function useDeletePatientDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api.post<unknown>(`patient-documents/${id}/delete/`, { reason }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PATIENT_DOCUMENTS_KEY }),
  });
}

export function patientDocumentFilePath(id: string): string {
  return `patient-documents/${id}/file/`;
}

/**
 * A stored file as a Blob (the API needs the bearer token, so an iframe or an image cannot load it by URL):
 * `inline` for viewing (PDF and images only; the server answers every other type as an attachment).
 */
export function useFileBlob(path: string | null, disposition: 'inline' | 'attachment' = 'inline') {
  const hospitalId = useHospitalId();
  return useQuery({
    queryKey: ['document-file', hospitalId, path, disposition] as const,
    queryFn: ({ signal }) => api.get<Blob>(path ?? '', { query: { disposition }, blob: true, signal }),
    enabled: path !== null,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
  });
}

/** Downloads a stored file under its name (a temporary object URL clicked as a link). */
export async function downloadFile(path: string, fileName: string): Promise<void> {
  const blob = await api.get<Blob>(path, { query: { disposition: 'attachment' }, blob: true });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// Public verification -----------------------------------------------------------------------------------

export function useVerification(token: string) {
  return useQuery({
    queryKey: ['document-verification', token] as const,
    queryFn: ({ signal }) =>
      api.get<TDocumentVerification>(`verify/${encodeURIComponent(token)}/`, { public: true, signal }),
    retry: false,
  });
}
