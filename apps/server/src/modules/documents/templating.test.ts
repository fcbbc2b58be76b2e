import { DOCUMENT_KINDS, PATIENT_DOCUMENT_CATEGORIES } from '@greensen/shared/contracts/documents';
import { describe, expect, it } from 'vitest';
import { documentTypeOf } from '../../lib/images.js';
import { escapeMarkdown, markdownToHtml, parseInline, parseMarkdown } from './markdown.js';
import { SHIPPED_TEMPLATES, shippedId } from './shipped.js';
import { renderTemplate, TemplateError, validateTemplate } from './templating.js';
import { demoVariables, emptyGroups, variableCatalogue } from './variables.js';

const demo = demoVariables('medical_certificate', 'fr');

function refusal(body: string): TemplateError {
  try {
    validateTemplate(body, demo);
  } catch (err) {
    if (err instanceof TemplateError) return err;
    throw err;
  }
  throw new Error('the body was accepted');
}

describe('the template language is a sandbox', () => {
  it('renders the variables it is given, escaped for the Markdown', () => {
    const out = renderTemplate('Patient : {{ patient.full_name }}', {
      patient: { full_name: '**Zoë** | <script>' },
    });
    expect(out).toBe('Patient : \\*\\*Zoë\\*\\* \\| <script>\n');
    expect(markdownToHtml(out)).toBe('<p>Patient : **Zoë** | &lt;script&gt;</p>');
  });

  it.each([
    ['{{ constructor }}', 'unknown_variable'],
    ['{{ patient.constructor.name }}', 'unknown_variable'],
    ['{{ patient.__proto__ }}', 'unknown_variable'],
    ['{{ patient.full_name.constructor }}', 'unknown_variable'],
    ['{% assign s = "x" %}{{ s.constructor.constructor }}', 'unknown_variable'],
    ['{{ process.env.JWT_SECRET }}', 'unknown_variable'],
    ['{% if false %}{{ global.process }}{% endif %}', 'unknown_variable'],
    ["{% include '/etc/passwd' %}", 'forbidden_tag'],
    ["{% render 'config.json' %}", 'forbidden_tag'],
    ["{% layout 'x' %}", 'forbidden_tag'],
    ['{{ patient.full_name | nope }}', 'unknown_filter'],
    ['{% unknown %}', 'unknown_tag'],
    ['{% if patient.age %}', 'syntax'],
  ])('refuses %s (%s)', (body, reason) => {
    expect(refusal(body).reason).toBe(reason);
  });

  it('gives the line and column of the fault', () => {
    const err = refusal('# Certificat\n\nBonjour {{ patient.nom }}');
    expect(err).toMatchObject({ reason: 'unknown_variable', line: 3, column: 12 });
  });

  it('bounds loops and output: an endless or huge render is refused, not run', () => {
    expect(refusal('{% for i in (1..100000000) %}x{% endfor %}').reason).toBe('limit_exceeded');
    expect(
      refusal('{% for i in (1..2000) %}{% for j in (1..2000) %}xxxxxxxxxx{% endfor %}{% endfor %}').reason,
    ).toBe('limit_exceeded');
    expect(refusal('x'.repeat(50_000)).reason).toBe('limit_exceeded');
  });

  it('prints nothing for a missing value at issue time, and reads own properties only', () => {
    expect(renderTemplate('[{{ patient.full_name.constructor }}]', { patient: { full_name: 'A' } })).toBe(
      '[]\n',
    );
  });
});

describe("Greensen's models", () => {
  it('ships every kind in French and English, each valid against its variables', () => {
    expect(SHIPPED_TEMPLATES).toHaveLength(DOCUMENT_KINDS.length * 2);
    for (const t of SHIPPED_TEMPLATES) {
      expect(() => validateTemplate(t.body, demoVariables(t.kind, t.language))).not.toThrow();
      expect(t.id).toBe(shippedId(t.kind, t.language));
    }
    expect(new Set(SHIPPED_TEMPLATES.map((t) => t.id)).size).toBe(SHIPPED_TEMPLATES.length);
  });

  it('render with empty groups (a certificate from the patient alone) without leftovers', () => {
    const cert = SHIPPED_TEMPLATES.find((t) => t.kind === 'medical_certificate' && t.language === 'fr')!;
    const vars = { ...emptyGroups('medical_certificate'), ...demoVariables('free_letter', 'fr') };
    const out = renderTemplate(cert.body, {
      ...vars,
      consultation: emptyGroups('medical_certificate').consultation,
    });
    expect(out).toContain('Zoë Łukasz-Öztürk Niño');
    expect(out).not.toContain('Constatations');
  });

  it('lists the variables of a kind with French and English labels', () => {
    const paths = variableCatalogue('prescription').map((v) => v.path);
    expect(paths).toEqual(
      expect.arrayContaining(['patient.full_name', 'prescription.lines', 'prescription.lines[].medication']),
    );
    expect(paths).not.toContain('exam');
  });

  /** Labels that are the same word in both languages; any other identical pair is a missing translation. */
  const SAME_IN_BOTH = new Set(['Patient', 'Consultation']);

  it.each(DOCUMENT_KINDS)('labels every variable of %s in French and in English', (kind) => {
    const problems: string[] = [];
    for (const v of variableCatalogue(kind)) {
      const bare = v.path.replaceAll('[]', '');
      for (const [lang, label] of [
        ['fr', v.label_fr],
        ['en', v.label_en],
      ] as const) {
        if (!label.trim() || label === v.path || label === bare || label.includes('_'))
          problems.push(`${v.path} (${lang}): ${JSON.stringify(label)}`);
      }
      if (v.label_fr === v.label_en && !SAME_IN_BOTH.has(v.label_fr))
        problems.push(`${v.path}: not translated (${v.label_fr})`);
    }
    expect(problems).toEqual([]);
  });

  it('labels the leaves in clinical French, and the invoice lines truthfully', () => {
    const byPath = new Map(
      DOCUMENT_KINDS.flatMap((kind) => variableCatalogue(kind)).map((v) => [v.path, v] as const),
    );
    const fr = (path: string) => byPath.get(path)?.label_fr;
    expect(fr('patient.birth_date')).toBe('Date de naissance');
    expect(fr('patient.record_number')).toBe('Numéro de dossier');
    expect(fr('prescription.lines[].dose')).toBe('Posologie (dose par prise)');
    expect(fr('prescription.lines[].route')).toBe('Voie d’administration');
    expect(fr('exam.results[].reference')).toBe('Valeurs de référence');
    expect(byPath.get('hospital.name')?.label_en).toBe('Hospital name');
    // Billing exists; what is true is that no document source fills an invoice model (KIND_SOURCES).
    const lines = byPath.get('invoice.lines');
    expect(lines?.label_fr).not.toMatch(/n’existe pas/);
    expect(lines?.label_en).not.toMatch(/until billing exists/);
    expect(lines?.label_en).toMatch(/billing does not fill this model yet/);
    // The allow-list holds only words that are really used, identical in both languages.
    expect(
      [...SAME_IN_BOTH].every((w) => [...byPath.values()].some((v) => v.label_fr === w && v.label_en === w)),
    ).toBe(true);
  });
});

describe('the Markdown subset', () => {
  it('parses headings, paragraphs with line breaks, lists, tables and rules', () => {
    const blocks = parseMarkdown(
      '# T\n\nl1\nl2\n\n- a\n- b\n\n1. x\n\n| h1 | h2 |\n|---|---|\n| c \\| d | e |\n\n---',
    );
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'list', 'list', 'table', 'rule']);
    const table = blocks[4] as Extract<(typeof blocks)[number], { type: 'table' }>;
    expect(table.rows[0]![0]).toEqual([{ text: 'c | d', bold: false, italic: false }]);
  });

  it('keeps an unclosed marker as text', () => {
    expect(parseInline('a **b')).toEqual([{ text: 'a **b', bold: false, italic: false }]);
    expect(parseInline('**b** *i*')).toEqual([
      { text: 'b', bold: true, italic: false },
      { text: ' ', bold: false, italic: false },
      { text: 'i', bold: false, italic: true },
    ]);
  });

  it('escapes a value so that it never becomes markup', () => {
    for (const value of ['# Titre', '- item', '1. un', '---', '| a |', '**gras**', '_x_', 'a\\b']) {
      const blocks = parseMarkdown(escapeMarkdown(value));
      expect(blocks).toHaveLength(1);
      expect(blocks[0]!.type).toBe('paragraph');
      const p = blocks[0] as Extract<(typeof blocks)[number], { type: 'paragraph' }>;
      expect(p.lines[0]!.map((r) => r.text).join('')).toBe(value);
    }
  });

  it('writes no HTML but its own tags', () => {
    expect(markdownToHtml('<img src=x onerror=alert(1)> **<b>**')).toBe(
      '<p>&lt;img src=x onerror=alert(1)&gt; <strong>&lt;b&gt;</strong></p>',
    );
  });
});

describe('file types by content', () => {
  const bytes = (...b: number[]) => Uint8Array.from(b);
  it('recognises PNG, JPEG, WebP, HEIC and PDF, and nothing else', () => {
    expect(documentTypeOf(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('image/png');
    expect(documentTypeOf(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(documentTypeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(documentTypeOf(Buffer.from('\0\0\0\x18ftypheic\0\0\0\0'))).toBe('image/heic');
    expect(documentTypeOf(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(documentTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
    expect(documentTypeOf(Buffer.from('<html><script>alert(1)</script>'))).toBeNull();
    expect(documentTypeOf(Buffer.from('\0\0\0\x18ftypavif\0\0\0\0'))).toBeNull();
  });

  it('has the categories of the contract', () => {
    expect(PATIENT_DOCUMENT_CATEGORIES).toContain('id_document');
  });
});
