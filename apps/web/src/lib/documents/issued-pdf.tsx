/**
 * What the file viewer shows for an issued document (its PDF under its number and verification code): shared by
 * the issuing button and the documents' lists, which need it without the issuing form (issue 38).
 */
import { Text } from '@mantine/core';
import { documentPdfPath, type TDocumentListItem } from './api';
import type { ViewedFile } from './FileViewer';

/** What the viewer shows for an issued document: its PDF under its number and verification code. */
export function issuedPdf(
  doc: Pick<TDocumentListItem, 'id' | 'number' | 'kind' | 'verification_code' | 'status'>,
  kindLabel: string,
  codeLabel: string,
): ViewedFile {
  return {
    path: documentPdfPath(doc.id),
    contentType: 'application/pdf',
    fileName: `${doc.number}.pdf`,
    title: `${kindLabel} · ${doc.number}`,
    header: (
      <Text size="sm" c="dimmed">
        {codeLabel} :{' '}
        <Text span ff="monospace" fw={700} c="var(--mantine-color-text)">
          {doc.verification_code}
        </Text>
      </Text>
    ),
  };
}
