/**
 * The hospital's logo (issue 15): shown to every member, replaced or removed by administrators. The file is
 * checked by the server by its content (PNG, JPEG or WebP, ≤ 512 KB); the size is checked here first too.
 */
import { LOGO_MAX_BYTES, LOGO_TYPES, type THospital } from '@greensen/shared/contracts/structure';
import { Button, FileButton, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useHospitalLogo, useSetHospitalLogo } from '../api/hospital';

/** The file as base64, without the `data:…;base64,` prefix. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function HospitalLogo({ hospital, canManage }: { hospital: THospital; canManage: boolean }) {
  const { t } = useTranslation('structure');
  const logo = useHospitalLogo(hospital.id, hospital.has_logo);
  const save = useSetHospitalLogo();
  const [error, setError] = useState<string | null>(null);

  async function upload(file: File | null) {
    if (!file) return;
    setError(null);
    if (file.size > LOGO_MAX_BYTES) {
      setError(t('logo.tooLarge'));
      return;
    }
    try {
      await save.mutateAsync({ id: hospital.id, data: await readBase64(file) });
      toast({ kind: 'success', title: t('logo.saved') });
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : t('logo.failed'));
    }
  }

  async function remove() {
    setError(null);
    try {
      await save.mutateAsync({ id: hospital.id, data: null });
      toast({ kind: 'success', title: t('logo.removed') });
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : t('logo.failed'));
    }
  }

  return (
    <Paper withBorder radius="md" p="md" data-testid="hospital-logo">
      <Stack gap="sm">
        <Title order={4}>{t('logo.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('logo.hint')}
        </Text>
        {hospital.has_logo && logo.data ? (
          <Image
            src={`data:${logo.data.content_type};base64,${logo.data.data}`}
            alt={t('logo.alt', { name: hospital.name })}
            h={96}
            w="auto"
            fit="contain"
          />
        ) : (
          <Text size="sm" c="dimmed" data-testid="no-logo">
            {hospital.has_logo && logo.isPending ? t('logo.loading') : t('logo.none')}
          </Text>
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        {canManage && (
          <Group gap="xs">
            <FileButton onChange={(file) => void upload(file)} accept={LOGO_TYPES.join(',')}>
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconPhotoUp size={16} />}
                  loading={save.isPending}
                >
                  {hospital.has_logo ? t('logo.replace') : t('logo.upload')}
                </Button>
              )}
            </FileButton>
            {hospital.has_logo && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => void remove()}
              >
                {t('logo.remove')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
