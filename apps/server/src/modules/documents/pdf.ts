import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DocumentLanguage, PaperSize } from '@greensen/shared/contracts/documents';
import type { Block, Inline } from './markdown.js';

/**
 * The PDF of a document (decision 0023), made on the server with pdfmake (vector text, tables, headers and
 * footers with page numbers, a QR code node). The font is Roboto as pdfmake ships it (Apache License 2.0),
 * embedded and subset: Latin, Latin-1, Latin Extended-A and -B (é, ç, ñ, ő, ł, ğ, ș, ț…). pdfmake reaches no
 * URL and no file (its access policies say so): the fonts are read once, at the first document, into its
 * in-memory files. pdfmake and its fonts are loaded then too, not when the server starts (issue 38: loading them
 * took about 0.4 s of every start's CPU).
 */

const require = createRequire(import.meta.url);
// pdfmake's Node entry (CommonJS, no types): a singleton with fonts and access policies.
interface PdfMake {
  virtualfs: { writeFileSync(name: string, content: Buffer): void };
  setFonts(fonts: object): void;
  setUrlAccessPolicy(cb: (url: string) => boolean): void;
  setLocalAccessPolicy(cb: (path: string) => boolean): void;
  createPdf(doc: object, options?: object): { getBuffer(): Promise<Buffer> };
}
const FONTS = {
  Roboto: {
    normal: 'Roboto-Regular.ttf',
    bold: 'Roboto-Medium.ttf',
    italics: 'Roboto-Italic.ttf',
    bolditalics: 'Roboto-MediumItalic.ttf',
  },
};
let loaded: PdfMake | null = null;

/** pdfmake with the fonts in its in-memory files and every access policy closed, loaded at the first use. */
function pdfmake(): PdfMake {
  if (loaded) return loaded;
  const lib = require('pdfmake') as PdfMake;
  const fontDir = join(dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto');
  // No document reads the disk.
  for (const file of Object.values(FONTS.Roboto))
    lib.virtualfs.writeFileSync(file, readFileSync(join(fontDir, file)));
  lib.setFonts(FONTS);
  lib.setUrlAccessPolicy(() => false);
  lib.setLocalAccessPolicy(() => false);
  loaded = lib;
  return lib;
}

export interface PdfLayout {
  paper: PaperSize;
  language: DocumentLanguage;
  title: string;
  /** Null for a preview (no number yet). */
  number: string | null;
  /** The issue date as printed. */
  date: string;
  hospital: {
    name: string;
    address: string | null;
    phones: string;
    header: string | null;
    footer: string | null;
    /** A PNG or JPEG data URL (pdfmake reads no WebP: a WebP logo is left out). */
    logo: string | null;
  };
  author: string;
  /** The verification page and its short code; null for a preview. */
  verification: { url: string; code: string } | null;
}

const TEXTS = {
  fr: {
    page: (p: number, n: number) => `Page ${p} / ${n}`,
    verify: 'Vérifier ce document',
    code: 'Code',
    preview: 'APERÇU — NON VALABLE',
    number: 'N°',
  },
  en: {
    page: (p: number, n: number) => `Page ${p} of ${n}`,
    verify: 'Verify this document',
    code: 'Code',
    preview: 'PREVIEW — NOT VALID',
    number: 'No.',
  },
};

const runs = (inline: Inline) =>
  inline.map((r) => ({
    text: r.text,
    ...(r.bold ? { bold: true } : {}),
    ...(r.italic ? { italics: true } : {}),
  }));

function blockNode(b: Block): object {
  switch (b.type) {
    case 'heading':
      return { text: runs(b.content), style: `h${b.level}` };
    case 'paragraph':
      return {
        text: b.lines.flatMap((line, i) => (i === 0 ? runs(line) : [{ text: '\n' }, ...runs(line)])),
        style: 'p',
      };
    case 'list':
      return { [b.ordered ? 'ol' : 'ul']: b.items.map((i) => ({ text: runs(i) })), style: 'p' };
    case 'table':
      return {
        table: {
          headerRows: 1,
          widths: b.header.map(() => '*'),
          body: [
            b.header.map((c) => ({ text: runs(c), bold: true, fillColor: '#eeeeee' })),
            ...b.rows.map((r) => r.map((c) => ({ text: runs(c) }))),
          ],
        },
        layout: 'lightHorizontalLines',
        style: 'p',
      };
    case 'rule':
      return {
        canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.5, lineColor: '#999999' }],
        margin: [0, 4, 0, 8],
      };
  }
}

const content = (blocks: readonly Block[]) => blocks.map(blockNode);

/** The document as PDF bytes. */
export async function renderPdf(blocks: readonly Block[], layout: PdfLayout): Promise<Buffer> {
  const t = TEXTS[layout.language];
  const a5 = layout.paper === 'A5';
  const side = a5 ? 28 : 40;
  const h = layout.hospital;
  const headerLines = [
    { text: h.name, bold: true, fontSize: a5 ? 10 : 12 },
    ...(h.header ? [{ text: h.header, fontSize: 8 }] : []),
    ...(h.address ? [{ text: h.address, fontSize: 8 }] : []),
    ...(h.phones ? [{ text: h.phones, fontSize: 8 }] : []),
  ];
  const doc = {
    pageSize: layout.paper,
    pageMargins: [side, a5 ? 78 : 96, side, a5 ? 70 : 80],
    info: { title: layout.title, author: layout.author, creator: 'Greensen', producer: 'Greensen' },
    defaultStyle: { font: 'Roboto', fontSize: a5 ? 9 : 10, lineHeight: 1.2 },
    styles: {
      h1: { fontSize: a5 ? 13 : 16, bold: true, margin: [0, 0, 0, 8] },
      h2: { fontSize: a5 ? 11 : 12, bold: true, margin: [0, 8, 0, 4] },
      h3: { fontSize: a5 ? 10 : 11, bold: true, margin: [0, 6, 0, 3] },
      p: { margin: [0, 0, 0, 6] },
    },
    ...(layout.verification
      ? {}
      : {
          watermark: { text: t.preview, color: '#cc0000', opacity: 0.12, bold: true, fontSize: a5 ? 30 : 44 },
        }),
    header: () => ({
      margin: [side, a5 ? 16 : 24, side, 0],
      columns: [
        ...(h.logo ? [{ image: h.logo, fit: a5 ? [40, 40] : [54, 54], width: a5 ? 46 : 62 }] : []),
        { stack: headerLines, width: '*' },
        {
          width: 'auto',
          alignment: 'right',
          fontSize: 8,
          stack: [
            ...(layout.number ? [{ text: `${t.number} ${layout.number}`, bold: true }] : []),
            { text: layout.date },
          ],
        },
      ],
    }),
    footer: (page: number, pages: number) => ({
      margin: [side, 6, side, 0],
      columns: [
        ...(layout.verification
          ? [
              { qr: layout.verification.url, fit: a5 ? 46 : 56, width: a5 ? 52 : 64, eccLevel: 'M' },
              {
                width: '*',
                fontSize: 7,
                stack: [
                  { text: t.verify, bold: true },
                  { text: layout.verification.url },
                  { text: `${t.code} : ${layout.verification.code}`, bold: true },
                  ...(h.footer ? [{ text: h.footer }] : []),
                ],
              },
            ]
          : [{ width: '*', fontSize: 7, text: h.footer ?? '' }]),
        { width: 'auto', fontSize: 7, alignment: 'right', text: t.page(page, pages) },
      ],
    }),
    content: content(blocks),
  };
  return pdfmake().createPdf(doc).getBuffer();
}

/** Loads pdfmake and its fonts ahead of the first document (main.ts, once the server listens). */
export function warmPdf(): void {
  pdfmake();
}
