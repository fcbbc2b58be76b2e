/**
 * The language and colour-mode switches of the signed-out and lock pages: plain buttons (two languages,
 * three modes), so the sign-in page needs no menu, tooltip or floating layer. The signed-in header keeps
 * its menus (LanguageSwitch, ColorModeControl).
 */
import { LANGUAGES } from '@greensen/shared/domain/constants';
import { ActionIcon, Button } from '@mantine/core';
import { IconDeviceDesktop, IconLanguage, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { type ColorModePreference, useColorMode } from '../../lib/color-scheme';
import { languageFromPath } from '../../lib/language';
import { useSwitchLanguage } from '../../lib/use-switch-language';

const NEXT_MODE: Record<ColorModePreference, ColorModePreference> = {
  system: 'light',
  light: 'dark',
  dark: 'system',
};
const MODE_ICON = { system: IconDeviceDesktop, light: IconSun, dark: IconMoon } as const;

/** Shows the current mode; a click moves to the next one (system → light → dark → system). */
export function ColorModeToggle() {
  const { t } = useTranslation('shell');
  const [mode, setMode] = useColorMode();
  const Icon = MODE_ICON[mode];
  const label = `${t('colorMode.label')} : ${t(`colorMode.${mode}`)}`;
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={label}
      title={label}
      onClick={() => setMode(NEXT_MODE[mode])}
    >
      <Icon size={20} />
    </ActionIcon>
  );
}

/** Offers the other language, named in that language ("English" on French pages, "Français" on English ones). */
export function LanguageToggle() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const current = languageFromPath(pathname);
  const other = LANGUAGES.find((lang) => lang !== current) ?? current;
  const switchLanguage = useSwitchLanguage();
  return (
    <Button
      variant="subtle"
      color="gray"
      size="compact-md"
      leftSection={<IconLanguage size={18} />}
      lang={other}
      title={t('language.label')}
      onClick={() => switchLanguage(other)}
    >
      {t(`language.${other}`)}
    </Button>
  );
}
