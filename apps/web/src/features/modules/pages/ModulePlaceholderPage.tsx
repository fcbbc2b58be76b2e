/**
 * The page of a route whose content arrives with a later issue: it says what the module will hold
 * (shared module descriptions), never blank.
 */
import type { Language } from '@greensen/shared/domain/constants';
import { moduleByName } from '@greensen/shared/domain/modules';
import { Alert, Anchor, Badge, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconHammer } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useMatches, useParams } from 'react-router';
import { isRouteHandle, type RouteHandle } from '../../../app/route-handle';
import { languageFromPath, localizePath } from '../../../lib/language';
import { ModuleIcon } from '../../../lib/module-icons';

function useHandle(): RouteHandle | null {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.handle;
    if (isRouteHandle(handle)) return handle;
  }
  return null;
}

export default function ModulePlaceholderPage() {
  const { t } = useTranslation('routes');
  const { pathname } = useLocation();
  const lang: Language = languageFromPath(pathname);
  const { id } = useParams();
  const handle = useHandle();
  const module = handle?.module ? moduleByName(handle.module) : undefined;
  const title = handle ? t(handle.titleKey) : '';
  const description = module
    ? module.description[lang]
    : handle?.descriptionKey
      ? t(`descriptions.${handle.descriptionKey}`)
      : '';

  return (
    <Stack gap="lg" data-testid="module-placeholder">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={48} radius="md" variant="light">
          {module ? <ModuleIcon name={module.icon} size={28} /> : <IconHammer size={28} />}
        </ThemeIcon>
        <div>
          <Title order={2}>{title}</Title>
          {module && handle?.kind !== 'list' && (
            <Text c="dimmed" size="sm">
              {module.title[lang]}
            </Text>
          )}
        </div>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm">
          <Text size="lg">{description}</Text>
          {id && (
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {t('placeholder.recordId')}
              </Text>
              <Badge variant="outline" color="gray">
                {id}
              </Badge>
            </Group>
          )}
          <Alert color="blue" variant="light" icon={<IconHammer size={18} />} title={t('placeholder.title')}>
            {t(`placeholder.${handle?.kind ?? 'list'}`)}
          </Alert>
          {module && handle?.kind !== 'list' && (
            <Anchor component={Link} to={localizePath(module.path, lang)} size="sm">
              <Group gap={4}>
                <IconArrowLeft size={14} />
                {t('placeholder.backTo', { module: module.title[lang] })}
              </Group>
            </Anchor>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
