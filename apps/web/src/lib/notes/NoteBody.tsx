/**
 * A note's body in its safe Markdown subset (issue 23, decision 0034): `#`–`###` headings, paragraphs (a line
 * break is kept), `- ` and `1. ` lists, `**bold**`, `*italic*` and `` `code` ``. Everything is built as React
 * elements around text nodes: raw HTML, links and images stay visible text, never markup.
 */
import { Code, List, Stack, Text, Title } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';

export type NoteBlock =
  | { type: 'heading'; level: 1 | 2 | 3; text: string }
  | { type: 'paragraph'; lines: string[] }
  | { type: 'list'; ordered: boolean; items: string[] };

const HEADING = /^(#{1,3})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const ORDERED = /^\s*\d{1,3}[.)]\s+(.*)$/;

/** The blocks of a body, line by line. */
export function parseNote(body: string): NoteBlock[] {
  const blocks: NoteBlock[] = [];
  let paragraph: string[] | null = null;
  let list: { ordered: boolean; items: string[] } | null = null;
  const close = () => {
    if (paragraph) blocks.push({ type: 'paragraph', lines: paragraph });
    if (list) blocks.push({ type: 'list', ...list });
    paragraph = null;
    list = null;
  };
  for (const line of body.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = HEADING.exec(line);
    const bullet = BULLET.exec(line);
    const ordered = bullet ? null : ORDERED.exec(line);
    if (!line.trim()) close();
    else if (heading) {
      close();
      blocks.push({ type: 'heading', level: heading[1]!.length as 1 | 2 | 3, text: heading[2]! });
    } else if (bullet || ordered) {
      const isOrdered = Boolean(ordered);
      if (!list || list.ordered !== isOrdered) {
        close();
        list = { ordered: isOrdered, items: [] };
      }
      list.items.push((bullet ?? ordered)![1]!);
    } else {
      if (list) close();
      paragraph ??= [];
      paragraph.push(line);
    }
  }
  close();
  return blocks;
}

const INLINE = /(\*\*[^*\n]+\*\*|`[^`\n]+`|\*[^*\s][^*\n]*\*|_[^_\s][^_\n]*_)/g;

/** `**bold**`, `*italic*` / `_italic_` and `` `code` `` of one line, the rest as text. */
export function renderInline(text: string): ReactNode[] {
  return text.split(INLINE).map((part, i) => {
    const key = `${i}:${part}`;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4)
      return <strong key={key}>{part.slice(2, -2)}</strong>;
    if (part.startsWith('`') && part.endsWith('`') && part.length > 2)
      return <Code key={key}>{part.slice(1, -1)}</Code>;
    if (/^([*_]).+\1$/.test(part) && part.length > 2) return <em key={key}>{part.slice(1, -1)}</em>;
    return <Fragment key={key}>{part}</Fragment>;
  });
}

export function NoteBody({ body, lineClamp }: { body: string; lineClamp?: number }) {
  const blocks = parseNote(body);
  const shown = lineClamp ? blocks.slice(0, lineClamp) : blocks;
  return (
    <Stack gap={6} data-testid="note-body">
      {shown.map((block, i) => {
        const key = `${i}-${block.type}`;
        if (block.type === 'heading')
          return (
            <Title key={key} order={block.level + 2 > 6 ? 6 : ((block.level + 2) as 3 | 4 | 5)}>
              {renderInline(block.text)}
            </Title>
          );
        if (block.type === 'list')
          return (
            <List key={key} type={block.ordered ? 'ordered' : 'unordered'} size="sm" withPadding>
              {block.items.map((item, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: items of a rendered text, never reordered
                <List.Item key={j}>{renderInline(item)}</List.Item>
              ))}
            </List>
          );
        return (
          <Text key={key} size="sm">
            {block.lines.map((line, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines of a rendered text, never reordered
              <Fragment key={j}>
                {j > 0 && <br />}
                {renderInline(line)}
              </Fragment>
            ))}
          </Text>
        );
      })}
    </Stack>
  );
}
