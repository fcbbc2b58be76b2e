/**
 * "S'abonner dans l'agenda de mon téléphone": my personal iCalendar link — create it, rotate it (the old link stops
 * working), revoke it, copy it. The server shows the link once (it keeps a hash); the feed holds times, types and
 * record numbers, no patient name.
 */
import { Alert, Button, CopyButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCalendarShare, IconCheck, IconCopy, IconLinkOff, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { toast } from '../../../lib/toast';
import { useCreateIcsLink, useIcsLink, useRevokeIcsLink } from '../api/ics-link';

/** The feed's absolute address (the server answers a path under the API origin). */
export function absoluteFeedUrl(url: string, origin: string = window.location.origin): string {
  return /^https?:\/\//i.test(url) ? url : `${origin}${url.startsWith('/') ? '' : '/'}${url}`;
}

export function IcsLinkPanel() {
  const { t } = useTranslation('appointments');
  const state = useIcsLink();
  const create = useCreateIcsLink();
  const revoke = useRevokeIcsLink();
  const [url, setUrl] = useState<string | null>(null);

  function failed(error: unknown) {
    if (isApiError(error) && error.status !== 403 && error.status !== 404)
      toast({ kind: 'error', title: t('ics.failed'), description: error.message });
  }

  async function makeLink() {
    try {
      const created = await create.mutateAsync();
      setUrl(absoluteFeedUrl(created.url));
    } catch (error) {
      failed(error);
    }
  }

  async function revokeLink() {
    try {
      await revoke.mutateAsync();
      setUrl(null);
      toast({ kind: 'success', title: t('ics.revoked') });
    } catch (error) {
      failed(error);
    }
  }

  const active = state.data?.active ?? false;
  return (
    <Paper withBorder radius="md" p="md" data-testid="ics-panel">
      <Stack gap="sm">
        <Group gap="xs">
          <IconCalendarShare size={20} />
          <Title order={4}>{t('ics.title')}</Title>
        </Group>
        <Text size="sm">{t('ics.explain')}</Text>
        <Text size="sm" c="dimmed">
          {t('ics.privacy')}
        </Text>
        {state.isError ? (
          <LoadError error={state.error} onRetry={() => void state.refetch()} />
        ) : (
          <>
            {url && (
              <Stack gap={6}>
                <Group gap="xs" align="flex-end" wrap="nowrap">
                  <TextInput
                    label={t('ics.link')}
                    value={url}
                    readOnly
                    style={{ flex: 1, minWidth: 0 }}
                    onFocus={(event) => event.currentTarget.select()}
                    data-testid="ics-url"
                  />
                  <CopyButton value={url}>
                    {({ copied, copy }) => (
                      <Button
                        variant={copied ? 'filled' : 'default'}
                        color={copied ? 'green' : undefined}
                        leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                        onClick={copy}
                      >
                        {copied ? t('ics.copied') : t('ics.copy')}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
                <Alert color="yellow" p="xs">
                  {t('ics.onceOnly')}
                </Alert>
              </Stack>
            )}
            {active && !url && (
              <Text size="sm" data-testid="ics-active">
                {t('ics.active', {
                  created: formatDateTime(state.data?.created_at),
                  used: state.data?.last_used_at ? formatDateTime(state.data.last_used_at) : t('ics.never'),
                })}
              </Text>
            )}
            <Group gap="xs">
              <Button
                leftSection={active ? <IconRefresh size={16} /> : <IconCalendarShare size={16} />}
                variant={active ? 'default' : 'filled'}
                loading={create.isPending}
                disabled={state.isPending}
                onClick={() => void makeLink()}
              >
                {active ? t('ics.rotate') : t('ics.create')}
              </Button>
              {active && (
                <Button
                  variant="default"
                  color="red"
                  leftSection={<IconLinkOff size={16} />}
                  loading={revoke.isPending}
                  onClick={() => void revokeLink()}
                >
                  {t('ics.revoke')}
                </Button>
              )}
            </Group>
            {active && (
              <Text size="xs" c="dimmed">
                {t('ics.rotateHint')}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
