/**
 * The small Markdown a document's text is written in (decision 0023): `#`, `##`, `###` headings, paragraphs (a
 * line break is kept), `**bold**`, `*italic*`, `- ` and `1. ` lists, `| a | b |` tables (the first row is the
 * header; a `|---|` row is skipped), `---` rules, and `\` escapes. Nothing else: no HTML, no links, no images.
 * The same blocks make the HTML preview (every character escaped) and the PDF.
 */

export interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
}
export type Inline = Run[];

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3; content: Inline }
  | { type: 'paragraph'; lines: Inline[] }
  | { type: 'list'; ordered: boolean; items: Inline[] }
  | { type: 'table'; header: Inline[]; rows: Inline[][] }
  | { type: 'rule' };

const HEADING = /^(#{1,3})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const ORDERED = /^\s*\d{1,3}\.\s+(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const TABLE_SEPARATOR = /^\|?(\s*:?-{2,}:?\s*\|)+\s*:?-{0,}:?\s*\|?$/;

/**
 * Makes a value safe to put in the Markdown: its characters stay text (never markup), whatever they are.
 * Line starts that would open a list, a heading or a rule are escaped too.
 */
export function escapeMarkdown(value: string): string {
  return value
    .replace(/[\\*_|#`]/g, '\\$&')
    .replace(/^(\s*)([-+>]|\d{1,3}\.(?=\s|$))/gm, (_, space: string, marker: string) =>
      marker.endsWith('.') ? `${space}${marker.slice(0, -1)}\\.` : `${space}\\${marker}`,
    );
}

/** Inline markup of one line: `**bold**`, `*italic*` / `_italic_`, `\` escapes; an unclosed marker is text. */
export function parseInline(line: string): Inline {
  type Tok = { kind: 'text'; text: string } | { kind: 'bold' | 'italic'; raw: string };
  const toks: Tok[] = [];
  let text = '';
  const flush = () => {
    if (text) toks.push({ kind: 'text', text });
    text = '';
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) {
      text += line[i + 1];
      i++;
    } else if (c === '*' && line[i + 1] === '*') {
      flush();
      toks.push({ kind: 'bold', raw: '**' });
      i++;
    } else if (c === '*' || c === '_') {
      flush();
      toks.push({ kind: 'italic', raw: c });
    } else text += c;
  }
  flush();
  // A marker without its pair is plain text.
  for (const kind of ['bold', 'italic'] as const) {
    const at = toks.flatMap((t, i) => (t.kind === kind ? [i] : []));
    if (at.length % 2 === 1) {
      const last = at[at.length - 1]!;
      const tok = toks[last] as { raw: string };
      toks[last] = { kind: 'text', text: tok.raw };
    }
  }
  const runs: Run[] = [];
  let bold = false;
  let italic = false;
  for (const t of toks) {
    if (t.kind === 'bold') bold = !bold;
    else if (t.kind === 'italic') italic = !italic;
    else {
      const prev = runs[runs.length - 1];
      const text = (t as { text: string }).text;
      if (prev && prev.bold === bold && prev.italic === italic) prev.text += text;
      else runs.push({ text, bold, italic });
    }
  }
  return runs;
}

/** The cells of a table line (`| a | b |`), `\|` staying in its cell. */
function cells(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      cur += s[i]! + s[i + 1]!;
      i++;
    } else if (s[i] === '|') {
      out.push(cur.trim());
      cur = '';
    } else cur += s[i];
  }
  out.push(cur.trim());
  return out;
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: Inline[] | null = null;
  let list: Extract<Block, { type: 'list' }> | null = null;
  let table: string[][] | null = null;
  const close = () => {
    if (paragraph) blocks.push({ type: 'paragraph', lines: paragraph });
    if (list) blocks.push(list);
    if (table) {
      const [header = [], ...rows] = table;
      const width = Math.max(header.length, ...rows.map((r) => r.length));
      const pad = (r: string[]) => [...r, ...Array<string>(width - r.length).fill('')].map(parseInline);
      blocks.push({ type: 'table', header: pad(header), rows: rows.map(pad) });
    }
    paragraph = null;
    list = null;
    table = null;
  };
  for (const raw of lines) {
    const line = raw.trimEnd();
    if (line.trim() === '') {
      close();
      continue;
    }
    if (line.trimStart().startsWith('|')) {
      if (!table) close();
      table ??= [];
      if (!TABLE_SEPARATOR.test(line.trim())) table.push(cells(line));
      continue;
    }
    if (table) close();
    const heading = HEADING.exec(line);
    if (heading) {
      close();
      blocks.push({
        type: 'heading',
        level: heading[1]!.length as 1 | 2 | 3,
        content: parseInline(heading[2]!),
      });
      continue;
    }
    if (RULE.test(line)) {
      close();
      blocks.push({ type: 'rule' });
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = bullet ? null : ORDERED.exec(line);
    if (bullet || ordered) {
      const isOrdered = Boolean(ordered);
      if (!list || list.ordered !== isOrdered) {
        close();
        list = { type: 'list', ordered: isOrdered, items: [] };
      }
      list.items.push(parseInline((bullet ?? ordered)![1]!));
      continue;
    }
    if (list) close();
    paragraph ??= [];
    paragraph.push(parseInline(line.trim()));
  }
  close();
  return blocks;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

function inlineHtml(inline: Inline): string {
  return inline
    .map((r) => {
      let h = escapeHtml(r.text);
      if (r.italic) h = `<em>${h}</em>`;
      if (r.bold) h = `<strong>${h}</strong>`;
      return h;
    })
    .join('');
}

/** The blocks as HTML: only h1–h3, p, br, strong, em, ul, ol, li, table, thead, tbody, tr, th, td, hr. */
function blockHtml(b: Block): string {
  switch (b.type) {
    case 'heading':
      return `<h${b.level}>${inlineHtml(b.content)}</h${b.level}>`;
    case 'paragraph':
      return `<p>${b.lines.map(inlineHtml).join('<br>')}</p>`;
    case 'list': {
      const tag = b.ordered ? 'ol' : 'ul';
      return `<${tag}>${b.items.map((i) => `<li>${inlineHtml(i)}</li>`).join('')}</${tag}>`;
    }
    case 'table':
      return `<table><thead><tr>${b.header.map((c) => `<th>${inlineHtml(c)}</th>`).join('')}</tr></thead><tbody>${b.rows
        .map((r) => `<tr>${r.map((c) => `<td>${inlineHtml(c)}</td>`).join('')}</tr>`)
        .join('')}</tbody></table>`;
    case 'rule':
      return '<hr>';
  }
}

export function blocksToHtml(blocks: readonly Block[]): string {
  return blocks.map(blockHtml).join('\n');
}

export const markdownToHtml = (source: string) => blocksToHtml(parseMarkdown(source));
