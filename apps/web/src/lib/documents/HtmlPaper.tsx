/**
 * A document's rendering as the server produced it (a preview with demo data, a draft, an issued text), shown as a
 * sheet of paper. The server escapes every value and emits only a few tags (h1–h3, p, strong, em, lists, tables,
 * hr), yet the page never trusts it: the HTML goes into an iframe `sandbox=""` through `srcdoc` — no scripts, no
 * forms, no navigation, an opaque origin that reaches neither the app nor its tokens (decision 0024).
 */
import { Box } from '@mantine/core';

const PAPER_CSS = `
  :root { color-scheme: light; }
  body { margin: 0; padding: 24px 28px; font: 14px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    color: #1a1b1e; background: #fff; }
  h1 { font-size: 20px; margin: 0 0 12px; } h2 { font-size: 17px; margin: 18px 0 8px; }
  h3 { font-size: 15px; margin: 14px 0 6px; } p { margin: 0 0 8px; }
  table { border-collapse: collapse; width: 100%; margin: 8px 0; }
  th, td { border: 1px solid #ced4da; padding: 4px 6px; text-align: left; vertical-align: top; }
  th { background: #f1f3f5; } hr { border: 0; border-top: 1px solid #ced4da; margin: 14px 0; }
  ul, ol { margin: 0 0 8px; padding-left: 22px; }
`;

export function paperDocument(html: string, lang: string): string {
  return `<!doctype html><html lang="${lang === 'en' ? 'en' : 'fr'}"><head><meta charset="utf-8"><style>${PAPER_CSS}</style></head><body>${html}</body></html>`;
}

export function HtmlPaper({
  html,
  lang,
  title,
  height = 520,
}: {
  html: string;
  lang: string;
  /** The iframe's accessible name. */
  title: string;
  height?: number;
}) {
  return (
    <Box
      style={{
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
        overflow: 'hidden',
        background: '#fff',
      }}
    >
      <iframe
        title={title}
        sandbox=""
        srcDoc={paperDocument(html, lang)}
        data-testid="html-paper"
        style={{ display: 'block', width: '100%', height, border: 0 }}
      />
    </Box>
  );
}
