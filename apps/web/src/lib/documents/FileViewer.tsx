/**
 * The in-app viewer of a stored file (an issued PDF, an uploaded scan or photo). The API needs the bearer token,
 * so the file is fetched as a Blob (`?disposition=inline`) and shown from an object URL: an image in an <img>, a
 * PDF in an iframe. The Blob is re-typed from what the server recognised by the content (PDF or image), so a file
 * can never be rendered as a page of the app. "Download" and "Open in a new tab" are beside it.
 */
import { Alert, Button, Center, Group, Image, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconDownload, IconExternalLink } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile, useFileBlob } from './api';

export interface ViewedFile {
  /** API path of the file (`documents/{id}/pdf/`, `patient-documents/{id}/file/`). */
  path: string;
  /** `application/pdf` or an image type. */
  contentType: string;
  fileName: string;
  title: string;
  /** Shown above the file (number, verification code…). */
  header?: ReactNode;
}

/** An object URL of the blob re-typed as `contentType`, revoked when it changes or the viewer closes. */
export function useObjectUrl(blob: Blob | undefined, contentType: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const typed = new Blob([blob], { type: contentType });
    const next = URL.createObjectURL(typed);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob, contentType]);
  return url;
}

/**
 * Whether the page's policy refused to frame `url` (an installation whose Content-Security-Policy has no `blob:`
 * in `frame-src`): the viewer then offers the new tab instead of an empty frame.
 */
export function useFrameBlocked(url: string | null): boolean {
  const [blocked, setBlocked] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    const listen = (event: SecurityPolicyViolationEvent) => {
      if (
        event.blockedURI === url ||
        (event.blockedURI === 'blob' && event.effectiveDirective === 'frame-src')
      )
        setBlocked(url);
    };
    document.addEventListener('securitypolicyviolation', listen);
    return () => document.removeEventListener('securitypolicyviolation', listen);
  }, [url]);
  return url !== null && blocked === url;
}

function ViewerBody({ file }: { file: ViewedFile }) {
  const { t } = useTranslation('documents');
  const query = useFileBlob(file.path, 'inline');
  const url = useObjectUrl(query.data, file.contentType);
  const frameBlocked = useFrameBlocked(url);
  const [downloading, setDownloading] = useState(false);
  const isPdf = file.contentType === 'application/pdf';
  return (
    <Stack gap="sm">
      {file.header}
      <Group justify="flex-end" gap="xs">
        {url && (
          <Button
            component="a"
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            variant="default"
            size="xs"
            leftSection={<IconExternalLink size={14} />}
          >
            {t('viewer.newTab')}
          </Button>
        )}
        <Button
          size="xs"
          variant="light"
          loading={downloading}
          leftSection={<IconDownload size={14} />}
          onClick={() => {
            setDownloading(true);
            void downloadFile(file.path, file.fileName).finally(() => setDownloading(false));
          }}
        >
          {t('viewer.download')}
        </Button>
      </Group>
      {query.isError ? (
        <Alert color="red" role="alert">
          {t('viewer.error')}
        </Alert>
      ) : !url ? (
        <Center h={300}>
          <Stack align="center" gap="xs">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              {t('viewer.loading')}
            </Text>
          </Stack>
        </Center>
      ) : isPdf && frameBlocked ? (
        <Center h={200} data-testid="pdf-blocked">
          <Stack align="center" gap="xs">
            <Text size="sm" c="dimmed" ta="center">
              {t('viewer.blocked')}
            </Text>
            <Button
              component="a"
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              leftSection={<IconExternalLink size={16} />}
            >
              {t('viewer.newTab')}
            </Button>
          </Stack>
        </Center>
      ) : isPdf ? (
        <iframe
          title={file.title}
          src={url}
          data-testid="pdf-viewer"
          style={{ width: '100%', height: '70vh', border: 0, borderRadius: 8 }}
        />
      ) : (
        <Image src={url} alt={file.title} fit="contain" mah="70vh" data-testid="image-viewer" />
      )}
    </Stack>
  );
}

export function FileViewer({ file, onClose }: { file: ViewedFile | null; onClose: () => void }) {
  const { t } = useTranslation('documents');
  return (
    <Modal opened={file !== null} onClose={onClose} title={file?.title ?? t('viewer.title')} size="xl">
      {file && <ViewerBody file={file} />}
    </Modal>
  );
}
