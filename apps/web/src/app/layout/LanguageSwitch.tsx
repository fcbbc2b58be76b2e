/** Language switch: keeps the page, writes the cookie, updates the profile when signed in. */
import { LANGUAGES, type Language } from '@greensen/shared/domain/constants';
import { Button, Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { languageFromPath } from '../../lib/language';
import { HEADER_DROPDOWN_Z_INDEX } from '../../lib/toast-layer';
import { useSwitchLanguage } from '../../lib/use-switch-language';

export function LanguageSwitch() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const current = languageFromPath(pathname);
  const switchLanguage = useSwitchLanguage();
  return (
    <Menu position="bottom-end" withinPortal zIndex={HEADER_DROPDOWN_Z_INDEX}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          size="compact-md"
          leftSection={<IconLanguage size={18} />}
          // The visible code is part of the name (axe label-content-name-mismatch): "Langue : FR".
          aria-label={t('language.current', { code: current.toUpperCase() })}
        >
          {current.toUpperCase()}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((lang: Language) => (
          <Menu.Item
            key={lang}
            lang={lang}
            rightSection={lang === current ? <IconCheck size={14} /> : null}
            onClick={() => lang !== current && switchLanguage(lang)}
          >
            {t(`language.${lang}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
