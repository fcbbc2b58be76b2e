/** The `greensen` theme: green primary, cool grays. */
import {
  type CSSVariablesResolver,
  createTheme,
  darken,
  getPrimaryShade,
  luminance,
  type MantineColorsTuple,
  type MantineThemeOverride,
  mergeThemeOverrides,
} from '@mantine/core';
import type { TFunction } from 'i18next';
import { i18n } from './i18n';

/**
 * The names of a pagination's arrows in the UI language ("Page précédente", not the libraries' "Previous page"),
 * given once to every `Pagination` (the theme) and every `DataTable` (`PagedTable`) (issue 37).
 */
export function paginationControlProps(
  control: 'first' | 'previous' | 'last' | 'next',
): Record<string, string> {
  return { 'aria-label': i18n.t(`common:table.controls.${control}`) };
}

/** Cool grays (slate-like, a touch of blue). */
const coolGray: MantineColorsTuple = [
  '#f5f7fa',
  '#e9edf2',
  '#d5dbe3',
  '#bcc5d0',
  '#9aa5b4',
  '#7a8697',
  // Dimmed text (`c="dimmed"`): 4.5:1 on white and on the tinted rows (red.1) it appears on.
  '#576374',
  '#4a5565',
  '#343d4b',
  '#1f2631',
];

const greensen: MantineColorsTuple = [
  '#eafbee',
  '#d6f3dd',
  '#aee5bb',
  '#82d797',
  '#5dcb78',
  '#45c365',
  '#37bf5a',
  '#28a84a',
  '#1e9540',
  '#0b8133',
];

/**
 * The notification colours the specification names (§9) that Mantine lacks: purple (transfer), emerald (bed
 * assignment) and amber (execution reassigned); indigo is Mantine's own.
 */
const purple: MantineColorsTuple = [
  '#faf5ff',
  '#f3e8ff',
  '#e9d5ff',
  '#d8b4fe',
  '#c084fc',
  '#a855f7',
  '#9333ea',
  '#7e22ce',
  '#6b21a8',
  '#581c87',
];
const emerald: MantineColorsTuple = [
  '#ecfdf5',
  '#d1fae5',
  '#a7f3d0',
  '#6ee7b7',
  '#34d399',
  '#10b981',
  '#059669',
  '#047857',
  '#065f46',
  '#064e3b',
];
const amber: MantineColorsTuple = [
  '#fffbeb',
  '#fef3c7',
  '#fde68a',
  '#fcd34d',
  '#fbbf24',
  '#f59e0b',
  '#d97706',
  '#b45309',
  '#92400e',
  '#78350f',
];

/** The colours the theme adds to Mantine's (the notification styles of the shared package name them). */
export const THEME_COLORS = { greensen, gray: coolGray, purple, emerald, amber };

export const THEME_NAME = 'greensen';

export const theme = createTheme({
  primaryColor: 'greensen',
  primaryShade: { light: 7, dark: 6 },
  colors: THEME_COLORS,
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  defaultRadius: 'md',
  cursorType: 'pointer',
  headings: { fontWeight: '650' },
  components: {
    // Links are underlined, as in the NHS and GOV.UK designs: inside a sentence a link is told apart by more
    // than its colour (axe link-in-text-block, WCAG 1.4.1).
    Anchor: { defaultProps: { underline: 'always' } },
    Pagination: { defaultProps: { getControlProps: paginationControlProps } },
  },
});

/**
 * `styles` of a chip (Badge) that must never be cut: by default Mantine ellipsises the label when a narrow
 * table column shrinks the chip ("EN CONSULTA…" at 768 px); with these the chip keeps the width of its text.
 */
export const NEVER_CUT = {
  root: { overflow: 'visible', flexShrink: 0 },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

/** WCAG AA for normal text (axe's `color-contrast`): every text the theme colours must reach it. */
export const MIN_CONTRAST = 4.5;

/** WCAG contrast ratio of two colours (hex or rgba), 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `color` itself when it reads on `background` at `MIN_CONTRAST`, else darkened by steps of 4 % until it does. */
export function readableOn(color: string, background: string): string {
  let out = color;
  for (let step = 1; contrastRatio(out, background) < MIN_CONTRAST && step <= 25; step++)
    out = darken(color, step * 0.04);
  return out;
}

/**
 * Filled colours lighter than this (relative luminance) keep their shade: the components put dark text on them
 * (yellow, and lime in the light scheme: triage levels 3A and 3B). The dark scheme's filled shade is one lighter.
 */
const LIGHT_FILL = { light: 0.36, dark: 0.45 } as const;

/**
 * Mantine's palette shades give white text on green, red or orange at about 3:1 and the light variant's text on
 * its tint at about 4:1 (axe, issue 25). These variables keep every colour of the theme but darken, only as much
 * as needed, the three uses that carry text: the filled background under white text (light and dark schemes), the
 * coloured text on white or on a tint (`c="red"`, links), and the light variant's text on its tint (chips, the
 * active navigation entry, avatars).
 */
export const cssVariablesResolver: CSSVariablesResolver = (merged) => {
  const light: Record<string, string> = {};
  const dark: Record<string, string> = {};
  for (const [name, shades] of Object.entries(merged.colors)) {
    for (const [scheme, out] of [
      ['light', light],
      ['dark', dark],
    ] as const) {
      const base = shades[getPrimaryShade(merged, scheme)]!;
      if (luminance(base) > LIGHT_FILL[scheme]) continue;
      const filled = readableOn(base, '#ffffff');
      if (filled === base) continue;
      out[`--mantine-color-${name}-filled`] = filled;
      out[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.12);
    }
    const text = readableOn(shades[getPrimaryShade(merged, 'light')]!, shades[1]!);
    light[`--mantine-color-${name}-text`] = text;
    light[`--mantine-color-${name}-outline`] = text;
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[9]!, shades[2]!);
  }
  light['--mantine-color-anchor'] = `var(--mantine-color-${merged.primaryColor}-text)`;
  // Dimmed text on the dark body (#242424) and on its tinted rows: the default (dark.2) gives 4.0:1.
  dark['--mantine-color-dimmed'] = '#a3a3a3';
  return { variables: {}, light, dark };
};

/**
 * The theme with the names of the kit's icon buttons in the UI language (issue 37, axe "button-name"): the close
 * button of every modal and notification, the clear button of every select and tags field (the date fields name
 * theirs: lib/date-field). Built again when
 * the language changes (Providers).
 */
// Plain objects, not \`Modal.extend(…)\`: \`extend\` would import each component into the sign-in page's first chunk
// (the theme is in the entry), 40 KB that page never uses.
export function localizedTheme(t: TFunction): MantineThemeOverride {
  const close = { 'aria-label': t('common:actions.close') };
  const clear = { 'aria-label': t('common:actions.clear') };
  return mergeThemeOverrides(
    theme,
    createTheme({
      components: {
        Modal: { defaultProps: { closeButtonProps: close } },
        Notification: { defaultProps: { closeButtonProps: close } },
        Select: { defaultProps: { clearButtonProps: clear } },
        MultiSelect: { defaultProps: { clearButtonProps: clear } },
        TagsInput: { defaultProps: { clearButtonProps: clear } },
      },
    }),
  );
}
