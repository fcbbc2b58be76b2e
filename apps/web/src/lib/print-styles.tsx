/**
 * Printing a page with the browser (until the templates issue brings the printed ordonnance): the app shell —
 * header, navigation —, buttons marked `data-no-print` and notifications are hidden, the page takes the sheet.
 */
const PRINT_CSS = `@media print {
  .mantine-AppShell-header, .mantine-AppShell-navbar, .mantine-Notifications-root, [data-no-print] {
    display: none !important;
  }
  .mantine-AppShell-main { padding: 0 !important; min-height: 0 !important; }
  body { background: #fff !important; color: #000 !important; }
}`;

export function PrintStyles() {
  return <style>{PRINT_CSS}</style>;
}
