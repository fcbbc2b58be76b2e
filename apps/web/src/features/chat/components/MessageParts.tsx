import type { TChatMessage } from '@greensen/shared/contracts/chat';
import { Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../lib/documents/api';
import { FileThumbnail } from '../../../lib/documents/DocumentLists';
import { FileViewer, type ViewedFile } from '../../../lib/documents/FileViewer';
import { formatBytes } from '../../../lib/documents/UploadDocumentModal';
import { attachmentPath } from '../api/chat';

/**
 * An attached file as a chip (name and size). Images are previewed from a Blob fetched with the token (re-typed
 * as the type the server recognised by content, never rendered as a page); a click opens the viewer (images and
 * PDFs) or downloads (HEIC).
 */
export function AttachmentChip({ message }: { message: TChatMessage }) {
  const { t, i18n } = useTranslation('chat');
  const [viewing, setViewing] = useState<ViewedFile | null>(null);
  const file = message.attachment;
  if (!file) return null;
  const path = attachmentPath(message.id);
  const image = file.viewable && file.content_type.startsWith('image/');
  const open = () => {
    if (file.viewable)
      setViewing({ path, contentType: file.content_type, fileName: file.name, title: file.name });
    else void downloadFile(path, file.name);
  };
  return (
    <>
      <UnstyledButton
        onClick={open}
        aria-label={t('attachment.open', { name: file.name })}
        data-testid="chat-attachment"
      >
        <Group gap="xs" wrap="nowrap">
          <FileThumbnail path={path} contentType={file.content_type} image={image} size={image ? 120 : 32} />
          <Badge
            variant="light"
            color="gray"
            leftSection={<IconPaperclip size={12} />}
            style={{ textTransform: 'none' }}
          >
            {file.name} · {formatBytes(file.size_bytes, i18n.language)}
          </Badge>
        </Group>
      </UnstyledButton>
      <FileViewer file={viewing} onClose={() => setViewing(null)} />
    </>
  );
}

/** A system message of a group ("X added Y"), written in the reader's language. */
export function SystemLine({ message, me }: { message: TChatMessage; me: string | null }) {
  const { t } = useTranslation('chat');
  if (!message.system) return null;
  const who = (p: { id: string; full_name: string }) => (p.id === me ? t('system.you') : p.full_name);
  return (
    <Text size="xs" c="dimmed" ta="center" fs="italic" data-testid="chat-system">
      {t(`system.${message.system.event}`, { actor: who(message.author), user: who(message.system.user) })}
    </Text>
  );
}
