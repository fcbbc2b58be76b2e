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

export const THEME_NAME = 'greensen';

export const theme = createTheme({
  primaryColor: 'greensen',
  primaryShade: { light: 7, dark: 6 },
  colors: { greensen, gray: coolGray },
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
