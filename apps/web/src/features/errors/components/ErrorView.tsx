/**
 * The error page of specification §2: icon, title, description, resource-ID badge, back and home buttons.
 * - 404 of a known resource type: type-specific title and description;
 * - any other 404: the generic page-not-found texts;
 * - anything else: 'An error occurred' with the error message.
 */
import type { Language } from '@greensen/shared/domain/constants';
import {
  GENERIC_ERROR_TITLE,
  isResourceType,
  notFoundTexts,
  RESOURCE_LIST_ROUTES,
  type ResourceType,
} from '@greensen/shared/domain/errors';
import { Badge, Button, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconBed,
  IconClipboardList,
  IconError404,
  IconHeartRateMonitor,
  IconHome,
  IconMedicalCross,
  IconMicroscope,
  IconStethoscope,
  IconTransfer,
  IconUser,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { isSearchEngineBot } from '../../../lib/bots';
import { languageFromPath, localizePath } from '../../../lib/language';

const TYPE_ICONS: Record<ResourceType, ComponentType<{ size?: number; stroke?: number }>> = {
  patient: IconUser,
  admission: IconClipboardList,
  consultation: IconStethoscope,
  exam: IconMicroscope,
  hospitalization: IconBed,
  triage: IconHeartRateMonitor,
  'medical-act': IconMedicalCross,
  transfer: IconTransfer,
};

export interface ErrorViewProps {
  /** 404 for not-found cases; anything else shows 'An error occurred'. */
  status: number;
  type?: string | null;
  id?: string | null;
  /** Error message (shown for non-404 errors, and as a detail line for route 404s). */
  message?: string | null;
  /** Full-page (no app shell around it). */
  fullPage?: boolean;
}

export function ErrorView({ status, type, id, message, fullPage }: ErrorViewProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const { i18n } = useTranslation();
  const lang: Language = languageFromPath(location.pathname);
  const t = i18n.getFixedT(lang, 'errors');

  if (typeof navigator !== 'undefined' && isSearchEngineBot(navigator.userAgent)) return null;

  const isNotFound = status === 404;
  const knownType = isResourceType(type) ? type : null;
  const texts = isNotFound
    ? notFoundTexts(knownType, lang)
    : { title: GENERIC_ERROR_TITLE[lang], description: message || t('page.unknownError') };
  const Icon = isNotFound ? (knownType ? TYPE_ICONS[knownType] : IconError404) : IconAlertTriangle;

  const goBack = () => {
    if (knownType) navigate(localizePath(RESOURCE_LIST_ROUTES[knownType], lang));
    else navigate(-1);
  };

  return (
    <Center mih={fullPage ? '100vh' : '60vh'} p="xl" data-testid="error-page">
      <Stack align="center" gap="md" maw={560} ta="center">
        <ThemeIcon size={88} radius={44} variant="light" color={isNotFound ? 'yellow' : 'red'}>
          <Icon size={48} stroke={1.5} />
        </ThemeIcon>
        {isNotFound && (
          <Text c="dimmed" fw={700} fz={40} lh={1}>
            404
          </Text>
        )}
        <Title order={1} fz={28}>
          {texts.title}
        </Title>
        <Text c="dimmed" size="lg">
          {texts.description}
        </Text>
        {isNotFound && message && (
          <Text c="dimmed" size="sm" ff="monospace" data-testid="error-message">
            {message}
          </Text>
        )}
        {id && (
          <Badge size="lg" variant="outline" color="gray" data-testid="resource-id">
            {t('page.resourceId', { id })}
          </Badge>
        )}
        <Group justify="center" mt="md">
          <Button variant="default" leftSection={<IconArrowLeft size={18} />} onClick={goBack}>
            {knownType ? t('page.backToList') : t('page.back')}
          </Button>
          <Button leftSection={<IconHome size={18} />} onClick={() => navigate(localizePath('/', lang))}>
            {t('page.home')}
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
