/**
 * Colour mode: the preference is system, light or dark (persisted by Mantine's local-storage manager,
 * read before paint by public/boot.js). A page may force light or dark; forcing system is refused.
 */
import {
  localStorageColorSchemeManager,
  type MantineColorScheme,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useEffect } from 'react';

export type ColorModePreference = 'system' | 'light' | 'dark';

export const COLOR_SCHEME_STORAGE_KEY = 'greensen-color-scheme';

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });

export function toMantineScheme(mode: ColorModePreference): MantineColorScheme {
  return mode === 'system' ? 'auto' : mode;
}

export function fromMantineScheme(scheme: MantineColorScheme): ColorModePreference {
  return scheme === 'auto' ? 'system' : scheme;
}

/** The colour mode preference and its setter. */
export function useColorMode(): [ColorModePreference, (mode: ColorModePreference) => void] {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return [fromMantineScheme(colorScheme), (mode) => setColorScheme(toMantineScheme(mode))];
}

/** Whether a forced mode is accepted; 'system' is refused with a console warning. */
export function acceptForcedMode(mode: ColorModePreference): mode is 'light' | 'dark' {
  if (mode === 'system') {
    console.warn('[greensen] A page cannot force the "system" colour mode; the user preference is kept.');
    return false;
  }
  return true;
}

/**
 * Forces light or dark while the calling page is mounted, without touching the stored preference,
 * then restores the scheme of the user's preference. Forcing 'system' is refused with a warning.
 */
export function useForcedColorScheme(mode: ColorModePreference): void {
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  useEffect(() => {
    if (!acceptForcedMode(mode)) return;
    const root = document.documentElement;
    root.setAttribute('data-mantine-color-scheme', mode);
    return () => root.setAttribute('data-mantine-color-scheme', computed);
  }, [mode, computed]);
}
