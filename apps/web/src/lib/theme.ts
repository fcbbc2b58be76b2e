/** The `greensen` theme: green primary, cool grays. */
import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Cool grays (slate-like, a touch of blue). */
const coolGray: MantineColorsTuple = [
  '#f5f7fa',
  '#e9edf2',
  '#d5dbe3',
  '#bcc5d0',
  '#9aa5b4',
  '#7a8697',
  '#5f6b7c',
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
});

/**
 * `styles` of a chip (Badge) that must never be cut: by default Mantine ellipsises the label when a narrow
 * table column shrinks the chip ("EN CONSULTA…" at 768 px); with these the chip keeps the width of its text.
 */
export const NEVER_CUT = {
  root: { overflow: 'visible', flexShrink: 0 },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;
