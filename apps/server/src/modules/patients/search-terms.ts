/**
 * What a patient search term is and how it may be misspelt (issue 41: the term's rules, no SQL): its kinds, the
 * record number it means, its name prefixes, its one-typo variants and the dictionary words near it. The queries
 * that use them are `searchPatients` of `patients.repository.ts`.
 */

/** Word-similarity threshold of name search: `Mbouyi` → `Mbuyi` is 0.57. */
export const NAME_SEARCH_THRESHOLD = 0.4;

export type SearchKind = 'record_number' | 'phone' | 'national_id' | 'name';

/** What a search term can be: a record number, a phone number, a national id and/or a name. */
export function classifySearch(term: string): { kinds: SearchKind[]; digits: string } {
  const digits = term.replace(/[^0-9]/g, '');
  const kinds: SearchKind[] = [];
  if (digits.length > 0) kinds.push('national_id');
  if (/^[A-Za-z]{2,10}-?\d{1,9}$/.test(term)) kinds.push('record_number');
  if (/^\+?[0-9 .-]+$/.test(term) && digits.length >= 4) kinds.push('phone');
  // Any term with a letter may be a name: unidentified patients are registered as "Homme Inconnu 2".
  if (/\p{L}/u.test(term)) kinds.push('name');
  return { kinds, digits };
}

/**
 * The prefixes a name search looks for: the term, and — when letters and digits touch (`inconnu2`) — the same
 * with a space between them, as names with a number are registered ("Inconnu 2").
 */
export function namePrefixes(term: string): string[] {
  const spaced = term.replace(/(\p{L})(\d)/gu, '$1 $2').replace(/(\d)(\p{L})/gu, '$1 $2');
  return spaced === term ? [term] : [term, spaced];
}

/** `HGG123`, `hgg-123` and `HGG-000123` all mean `HGG-000123`. */
export function normalizeRecordNumber(term: string): string {
  const m = /^([A-Za-z]{2,10})-?(\d{1,9})$/.exec(term.trim());
  if (!m) return term.toUpperCase();
  return `${m[1]!.toUpperCase()}-${m[2]!.padStart(6, '0')}`;
}

/**
 * The term as the name keys hold names (`f_unaccent(lower(…))`), computed here to spell the variants of
 * tier 3. Should it differ from the database's unaccenting for some letter, the variants just find nothing.
 */
export function foldName(s: string): string {
  return s
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/đ/g, 'd')
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

/** The letters a misspelling commonly puts for another (sounds alike in French and Congolese names). */
const CONFUSABLE: Record<string, string> = {
  a: 'eo',
  e: 'aiy',
  i: 'eyj',
  o: 'au',
  u: 'oiw',
  y: 'ie',
  b: 'pv',
  c: 'ksqz',
  d: 't',
  f: 'vp',
  g: 'jk',
  h: '',
  j: 'giy',
  k: 'cq',
  l: 'r',
  m: 'n',
  n: 'm',
  p: 'b',
  q: 'kc',
  r: 'l',
  s: 'zcx',
  t: 'd',
  v: 'fbw',
  w: 'vu',
  x: 'sk',
  z: 's',
};
/** Letters a misspelling commonly adds: vowels and a silent h (`Mbouyi`, `Kabongho`). */
const INSERTABLE = 'aeiouyh';

/**
 * The likely misspellings one edit away from `t` (already unaccented, lower case): a letter left out, two
 * letters swapped, a letter doubled, a vowel or an h added, a letter replaced by one that sounds alike
 * (CONFUSABLE). About 12 per character: cheap to look up in the name indexes (see searchPatients).
 */
export function oneEditVariants(t: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= t.length; i += 1) {
    const a = t.slice(0, i);
    const b = t.slice(i);
    const c = b[0];
    if (c !== undefined) {
      out.add(a + b.slice(1)); // left out
      out.add(a + c + b); // doubled
      for (const r of CONFUSABLE[c] ?? '') out.add(a + r + b.slice(1)); // replaced
    }
    if (b.length > 1) out.add(a + b[1] + b[0] + b.slice(2)); // swapped
    for (const r of INSERTABLE) out.add(a + r + b); // added
  }
  out.delete(t);
  // Cutting between the two halves of a surrogate pair (emoji, mathematical letters) spells no name, and
  // PostgreSQL refuses such a string as JSON (a 500 found by the fuzzer): those variants are left out.
  return [...out].filter(
    (v) => v.trim().length >= 2 && v === v.trim() && !v.includes('  ') && !LONE_SURROGATE.test(v),
  );
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** At most this many spellings of one word, and phrases of a term, are looked for. */
const MAX_SPELLINGS = 3;

/**
 * The dictionary's words (nearest first) that may be what `word` was meant to be: at most two edits away (one for
 * a word of four letters or fewer; a letter swapped counts one), or sharing most of their trigrams — the word
 * itself first when it exists. At most MAX_SPELLINGS, the fewest edits first.
 */
export function spellingsNear(word: string, nearest: readonly string[]): string[] {
  const allowed = word.length <= 4 ? 1 : 2;
  return nearest
    .map((w, rank) => ({ w, rank, edits: editDistance(word, w, allowed + 1) }))
    .filter((c) => c.edits <= allowed || trigramOverlap(word, c.w) >= NAME_SEARCH_THRESHOLD)
    .sort((a, b) => a.edits - b.edits || a.rank - b.rank)
    .slice(0, MAX_SPELLINGS)
    .map((c) => c.w);
}

/** The phrases a term's words' spellings make, in order (the first spellings first), at most MAX_SPELLINGS. */
export function phrasesOf(choices: readonly string[][]): string[] {
  let phrases = [''];
  for (const c of choices)
    phrases = phrases.flatMap((p) => c.map((w) => (p ? `${p} ${w}` : w))).slice(0, MAX_SPELLINGS);
  return phrases;
}

/**
 * The optimal string alignment distance of two words (insertions, deletions, substitutions, and two neighbours
 * swapped, one edit each), or `cap` once it is reached: enough to tell "two typos" from "another word".
 */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let smallest = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
      smallest = Math.min(smallest, d);
    }
    if (smallest >= cap) return cap;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, cap);
}

/** Trigram overlap of two strings (0…1): ranks the one-typo spellings found, closest first. */
export function trigramOverlap(a: string, b: string): number {
  const grams = (s: string) => {
    const padded = `  ${s} `;
    const set = new Set<string>();
    for (let i = 0; i + 3 <= padded.length; i += 1) set.add(padded.slice(i, i + 3));
    return set;
  };
  const x = grams(a);
  const y = grams(b);
  let shared = 0;
  for (const g of x) if (y.has(g)) shared += 1;
  return shared / (x.size + y.size - shared);
}
