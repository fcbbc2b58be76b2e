/** Side navigation: only the allowed modules; the active one is the longest matching prefix. */
import { allowedModules } from '@greensen/shared/domain/access';
import type { Language } from '@greensen/shared/domain/constants';
import { moduleForPath } from '@greensen/shared/domain/modules';
import { Badge, NavLink, ScrollArea, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useModuleScope } from '../../lib/app-config';
import { useChatUnread } from '../../lib/chat-unread';
import { languageFromPath, localizePath } from '../../lib/language';
import { ModuleIcon } from '../../lib/module-icons';
import { useAuthStore } from '../../stores/auth';
import { rolesInHospital, useUserStore } from '../../stores/user';

export function useAllowedModules() {
  const { environment, extraModules } = useModuleScope();
  const user = useUserStore((state) => state.user);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return allowedModules(environment, rolesInHospital(user, hospitalId), extraModules);
}

export function ModuleNav({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const lang: Language = languageFromPath(pathname);
  const modules = useAllowedModules();
  const active = moduleForPath(pathname)?.name ?? null;
  const chatUnread = useChatUnread(modules.some((m) => m.name === 'chat'));
  return (
    <ScrollArea type="auto" style={{ flex: 1 }}>
      <Stack gap={2} component="nav" aria-label={t('nav.label')} data-testid="module-nav">
        {modules.map((module) => (
          <NavLink
            key={module.name}
            component={Link}
            to={localizePath(module.path, lang)}
            label={module.title[lang]}
            leftSection={<ModuleIcon name={module.icon} />}
            rightSection={
              module.name === 'chat' && chatUnread > 0 ? (
                <Badge
                  size="sm"
                  circle
                  aria-label={t('nav.chatUnread', { count: chatUnread })}
                  data-testid="chat-unread-badge"
                >
                  {chatUnread > 99 ? '99+' : chatUnread}
                </Badge>
              ) : undefined
            }
            active={module.name === active}
            aria-current={module.name === active ? 'page' : undefined}
            onClick={onNavigate}
            variant="light"
          />
        ))}
      </Stack>
    </ScrollArea>
  );
}
