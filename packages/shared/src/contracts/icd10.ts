/**
 * ICD-10 / CIM-10 diagnosis catalogue contracts (issue 7). The catalogue is global (not hospital-scoped):
 * chapters (roman numeral), blocks (`A00-A09`), three-character categories (`B50`) and four-character codes
 * (`B50.9`), each with its French and English label. Codes are stored upper case with the dot (`B50.9`).
 *
 * `GET /api/icd10/?search=&kind=&parent=&common=&page=&page_size=` → `ZIcd10List`
 *   - with `search`: code prefix (`B50`, `b50.9`, `B509`) or words in French or English, accent, case and typo
 *     insensitive; ordered exact code, code prefix, common codes, then similarity;
 *   - without `search`: browsing — the chapters, or the children of `parent` (in code order).
 * `GET /api/icd10/{code}/` → `ZIcd10Detail` (the entry, its parents from the chapter down, its children).
 */
import { z } from 'zod';
import { ZPageQuery, zPage, zQueryBoolean, zSearch } from './common.js';

export const ICD10_KINDS = ['chapter', 'block', 'category', 'code'] as const;
export type Icd10Kind = (typeof ICD10_KINDS)[number];

/** A category (`B50`) or a code (`B50.9`, `W54.00`): what a diagnosis may record. */
export const ICD10_CODE_PATTERN = /^[A-Z][0-9]{2}(\.[0-9A-Z]{1,2})?$/;
/** A block (`A00-A09`, `B50-B64`). */
export const ICD10_BLOCK_PATTERN = /^[A-Z][0-9]{2}-[A-Z][0-9]{2}$/;
/** A chapter (`I` … `XXII`). */
export const ICD10_CHAPTER_PATTERN = /^[IVX]{1,5}$/;

/**
 * The canonical form of a typed code: trimmed, upper case, the dot inserted after three characters when
 * missing (`b509` → `B50.9`). Returns the input upper-cased when it does not look like a category/code.
 */
export function normalizeIcd10Code(input: string): string {
  const s = input.trim().toUpperCase().replace(/\s+/g, '');
  const m = /^([A-Z][0-9]{2})\.?([0-9A-Z]{1,2})?$/.exec(s);
  if (!m) return s;
  return m[2] ? `${m[1]}.${m[2]}` : (m[1] as string);
}

/** A diagnosis code as recorded (category or code), normalized. */
export const ZIcd10CodeValue = z
  .string()
  .trim()
  .max(10)
  .transform(normalizeIcd10Code)
  .refine((v) => ICD10_CODE_PATTERN.test(v), { message: 'icd10.code_invalid' });

/** One catalogue entry. `label` is in the request's language (Accept-Language, French by default). */
export const ZIcd10Entry = z.object({
  code: z.string(),
  kind: z.enum(ICD10_KINDS),
  label_fr: z.string(),
  label_en: z.string(),
  label: z.string(),
  /** The chapter's roman numeral (I–XXII). */
  chapter: z.string().nullable(),
  /** The chapter of a block, the block of a category, the category of a code; null for a chapter. */
  parent_code: z.string().nullable(),
  /** Frequent in our hospitals (offered first). */
  common: z.boolean(),
});
export type TIcd10Entry = z.infer<typeof ZIcd10Entry>;

export const ZIcd10ListQuery = ZPageQuery.extend({
  /** A code prefix or words (French or English), at most 100 characters; empty = browsing. */
  ...zSearch(),
  kind: z.enum(ICD10_KINDS).optional(),
  /** Browsing: the children of this chapter, block or category (ignored when `search` is given). */
  parent: z
    .string()
    .trim()
    .max(16)
    .regex(/^[A-Za-z0-9.-]+$/)
    .optional(),
  /** Only the common codes. */
  common: zQueryBoolean.optional(),
});
export type TIcd10ListQuery = z.input<typeof ZIcd10ListQuery>;

export const ZIcd10List = zPage(ZIcd10Entry);
export type TIcd10List = z.infer<typeof ZIcd10List>;

export const ZIcd10Params = z.object({
  code: z
    .string()
    .max(16)
    .regex(/^[A-Za-z0-9.-]+$/),
});

export const ZIcd10Detail = ZIcd10Entry.extend({
  /** The ancestors, chapter first, direct parent last. */
  parents: z.array(ZIcd10Entry),
  /** The direct children in code order (blocks of a chapter, categories of a block, codes of a category). */
  children: z.array(ZIcd10Entry),
  /** Came from an imported full CIM-10/ICD-10 file rather than the shipped catalogue. */
  imported: z.boolean(),
});
export type TIcd10Detail = z.infer<typeof ZIcd10Detail>;
