import { fileURLToPath } from 'node:url';
import type { TIcd10Detail, TIcd10List } from '@greensen/shared/contracts/icd10';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, journeyHospital } from '../../../test/journey.js';
import { icd10Codes } from '../../db/schema/index.js';
import {
  type CatalogueLoad,
  CHAPTER_ORDER,
  ensureIcd10Catalogue,
  ICD10_HASH_SETTING,
  shippedCatalogue,
} from './icd10.catalogue.js';
import { Icd10ImportRefused, importIcd10File, importIcd10Text } from './icd10.import.js';
import { fold, searchParts, setWordThreshold } from './icd10.repository.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/icd10-import.csv', import.meta.url));

let ctx: TestContext;
let firstLoad: CatalogueLoad;
let doctor: Actor;
let nurse: Actor;
let midwife: Actor;
let headDoctor: Actor;
let secretary: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  firstLoad = await ensureIcd10Catalogue(ctx.database.db);
  const h = await journeyHospital(ctx, { code: 'HGG' });
  doctor = await h.as('DOCTOR');
  nurse = await h.as('NURSE');
  midwife = await h.as('SAGE_FEMME', 'MAT');
  headDoctor = await h.as('HEAD_DOCTOR');
  secretary = await h.as('SECRETARY');
});
afterAll(() => ctx.close());

const get = (actor: Actor | null, url: string, lang?: string) =>
  ctx.app.inject({
    method: 'GET',
    url,
    headers: { ...(actor?.headers ?? {}), ...(lang ? { 'accept-language': lang } : {}) },
  });

async function search(term: string, opts: { lang?: string; query?: string } = {}): Promise<TIcd10List> {
  const res = await get(
    doctor,
    `/api/icd10/?search=${encodeURIComponent(term)}${opts.query ?? ''}`,
    opts.lang,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const codes = (list: TIcd10List) => list.results.map((r) => r.code);

const count = async (where = sql`true`) =>
  Number(
    (
      await ctx.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from icd10_codes where ${where}`,
      )
    ).rows[0]!.n,
  );

describe('loading the shipped catalogue', () => {
  it('loads every row of the shipped file once, then skips it', async () => {
    const { rows } = shippedCatalogue();
    expect(firstLoad).toMatchObject({ loaded: true, rows: rows.length });
    expect(rows.length).toBeGreaterThanOrEqual(2000);
    const again = await ensureIcd10Catalogue(ctx.database.db);
    expect(again).toMatchObject({ loaded: false, rows: 0 });
    for (const kind of ['chapter', 'block', 'category', 'code'] as const) {
      expect(await count(sql`kind = ${kind}`), kind).toBe(rows.filter((r) => r.kind === kind).length);
    }
    expect(await count(sql`kind = 'block'`)).toBeGreaterThanOrEqual(250);
    const common = await count(sql`common`);
    expect(common).toBeGreaterThanOrEqual(200);
    expect(common).toBeLessThan(1000);
  });

  it('is complete: the 22 chapters in order, every parent present and of the right kind, both labels', async () => {
    const chapters = await get(doctor, '/api/icd10/?page_size=50');
    expect(chapters.json().results.map((r: { code: string }) => r.code)).toEqual(CHAPTER_ORDER);
    expect(CHAPTER_ORDER).toHaveLength(22);
    const wrongParents = await ctx.database.db.execute<{ code: string }>(sql`
      select c.code from icd10_codes c left join icd10_codes p on p.code = c.parent_code
      where (c.kind = 'chapter' and c.parent_code is not null)
         or (c.kind = 'block' and p.kind is distinct from 'chapter')
         or (c.kind = 'category' and p.kind is distinct from 'block')
         or (c.kind = 'code' and p.kind is distinct from 'category')
         or (c.kind <> 'chapter' and p.chapter is distinct from c.chapter)`);
    expect(wrongParents.rows).toEqual([]);
    expect(await count(sql`btrim(label_fr) = '' or btrim(label_en) = ''`)).toBe(0);
    const emptyChapters = await ctx.database.db.execute<{ code: string }>(sql`
      select c.code from icd10_codes c where c.kind = 'chapter'
        and not exists (select 1 from icd10_codes b where b.parent_code = c.code)`);
    expect(emptyChapters.rows).toEqual([]);
    // The conditions the hospitals see every day are all there.
    for (const code of ['B50.9', 'B54', 'A01.0', 'A09.0', 'A15.0', 'B20', 'B24', 'Z21', 'B16.9', 'B05.9']) {
      expect(await count(sql`code = ${code}`), code).toBe(1);
    }
    for (const code of ['I10', 'I50.9', 'I64', 'E11.9', 'E43', 'D57.0', 'O80', 'O82.1', 'P07.3', 'T63.0']) {
      expect(await count(sql`code = ${code}`), code).toBe(1);
    }
  });

  it('reloads and repairs the catalogue when the stored hash differs, without duplicating rows', async () => {
    const db = ctx.database.db;
    const total = await count();
    await db.update(icd10Codes).set({ labelFr: 'Modifié' }).where(eq(icd10Codes.code, 'B54'));
    await db.execute(sql`delete from app_settings where key = ${ICD10_HASH_SETTING}`);
    const reload = await ensureIcd10Catalogue(db);
    expect(reload.loaded).toBe(true);
    const [b54] = await db.select().from(icd10Codes).where(eq(icd10Codes.code, 'B54'));
    expect(b54!.labelFr).toBe('Paludisme, sans précision');
    expect(await count()).toBe(total);
  });
});

describe('search', () => {
  it('finds malaria by French words, accents and case ignored, common codes first', async () => {
    const list = await search('Paludisme');
    expect(list.count).toBeGreaterThanOrEqual(15);
    expect(codes(list).slice(0, 6)).toEqual(expect.arrayContaining(['B54', 'B50.9', 'B50.0']));
    for (const r of list.results) expect(fold(r.label_fr)).toContain('paludisme');
    const firstUncommon = list.results.findIndex((r) => !r.common);
    expect(list.results.slice(firstUncommon).every((r) => !r.common)).toBe(true);
    expect((await search('paludisme grave')).results[0]!.code).toBe('B50.8');
  });

  it('finds malaria in English, with the label in the request language, real matches before loose ones', async () => {
    const list = await search('malaria', { lang: 'en', query: '&page_size=100' });
    expect(codes(list).slice(0, 6)).toEqual(expect.arrayContaining(['B54', 'B50.9']));
    expect(list.results[0]!.label).toBe(list.results[0]!.label_en);
    const isMalaria = list.results.map((r) => /malaria/i.test(r.label_en));
    expect(isMalaria.indexOf(false)).toBeGreaterThan(isMalaria.lastIndexOf(true));
    const fr = await search('malaria');
    expect(fr.results[0]!.label).toBe(fr.results[0]!.label_fr);
  });

  it('finds sickle-cell disease as « drépanocytose » with or without accents, and as « sickle »', async () => {
    for (const term of ['drépanocytose', 'drepanocytose', 'DRÉPANOCYTOSE']) {
      const list = await search(term);
      expect(list.results[0]!.code, term).toMatch(/^D57/);
      expect(codes(list), term).toEqual(expect.arrayContaining(['D57.0', 'D57.1', 'D57.3']));
    }
    const en = await search('sickle', { lang: 'en' });
    expect(codes(en).slice(0, 3)).toContain('D57.0');
    expect(en.results.find((r) => r.code === 'D57.0')!.label).toBe('Sickle-cell anaemia with crisis');
  });

  it('finds typhoid, hypertension and delivery', async () => {
    expect(codes(await search('typhoide')).slice(0, 2)).toContain('A01.0');
    expect((await search('hypertension')).results[0]!.code).toBe('I10');
    expect(codes(await search('accouchement')).slice(0, 3)).toContain('O80');
    expect(codes(await search('typhoid fever', { lang: 'en' }))[0]).toBe('A01.0');
  });

  it('tolerates typing mistakes', async () => {
    expect(codes(await search('paludsime')).slice(0, 5)).toContain('B54');
    expect(codes(await search('hypertention')).slice(0, 2)).toContain('I10');
    expect(codes(await search('drepanocitose'))[0]).toMatch(/^D57/);
  });

  it('finds by code prefix: the exact code first, then its subdivisions', async () => {
    const b50 = await search('B50');
    expect(codes(b50).slice(0, 4)).toEqual(['B50', 'B50.0', 'B50.8', 'B50.9']);
    expect(codes(b50).every((c) => c.startsWith('B50'))).toBe(true);
    for (const term of ['b50.9', 'B509', ' B50.9 ']) expect(codes(await search(term))).toEqual(['B50.9']);
    const o80 = await search('O80');
    expect(o80.results[0]!.code).toBe('O80');
    expect(codes(o80)).toEqual(expect.arrayContaining(['O80.0', 'O80.9']));
    expect(codes(await search('O8')).slice(0, 3)).toEqual(expect.arrayContaining(['O80', 'O82']));
  });

  it('filters by kind and by common', async () => {
    const onlyCodes = await search('paludisme', { query: '&kind=code' });
    expect(onlyCodes.count).toBeGreaterThan(3);
    expect(onlyCodes.results.every((r) => r.kind === 'code')).toBe(true);
    const common = await search('paludisme', { query: '&common=true' });
    expect(common.count).toBeGreaterThan(2);
    expect(common.count).toBeLessThan((await search('paludisme')).count);
    expect(common.results.every((r) => r.common)).toBe(true);
  });

  it('paginates with next and previous links', async () => {
    const all = await search('paludisme', { query: '&page_size=100' });
    const page1 = await search('paludisme', { query: '&page_size=5' });
    const page2 = await search('paludisme', { query: '&page_size=5&page=2' });
    expect(page1.count).toBe(all.count);
    expect(page1.previous).toBeNull();
    expect(page1.next).toContain('page=2');
    expect(page2.previous).toContain('page=1');
    expect([...codes(page1), ...codes(page2)]).toEqual(codes(all).slice(0, 10));
    const last = await search('paludisme', { query: `&page_size=5&page=${Math.ceil(all.count / 5)}` });
    expect(last.next).toBeNull();
  });

  it('uses the indexes (no sequential scan) for word and code searches', async () => {
    for (const term of ['paludisme', 'B50']) {
      const plan = await ctx.database.db.transaction(async (tx) => {
        await setWordThreshold(tx);
        const { where, order } = searchParts(term, {});
        const res = await tx.execute(
          sql`explain select c.code from icd10_codes c where ${where} order by ${order} limit 20`,
        );
        return res.rows.map((r) => String(Object.values(r)[0])).join('\n');
      });
      expect(plan, term).toContain('icd10_search_trgm_idx');
      expect(plan, term).not.toContain('Seq Scan');
    }
  });
});

describe('browsing and detail', () => {
  it('lists the children of a chapter, a block or a category in code order', async () => {
    const blocks = (await get(doctor, '/api/icd10/?parent=I&page_size=50')).json() as TIcd10List;
    expect(blocks.results[0]!.code).toBe('A00-A09');
    expect(blocks.results.every((r) => r.kind === 'block' && r.parent_code === 'I')).toBe(true);
    expect(codes(blocks)).toEqual([...codes(blocks)].sort());
    const b50 = (await get(doctor, '/api/icd10/?parent=b50')).json() as TIcd10List;
    expect(codes(b50)).toEqual(['B50.0', 'B50.8', 'B50.9']);
  });

  it('returns one entry with its parents, chapter first, and its children', async () => {
    const res = await get(doctor, '/api/icd10/b509/', 'en');
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json() as TIcd10Detail;
    expect(d).toMatchObject({ code: 'B50.9', kind: 'code', chapter: 'I', parent_code: 'B50', common: true });
    expect(d.label).toBe('Plasmodium falciparum malaria, unspecified');
    expect(d.parents.map((p) => p.code)).toEqual(['I', 'B50-B64', 'B50']);
    expect(d.children).toEqual([]);
    const cat = (await get(doctor, '/api/icd10/B50/')).json() as TIcd10Detail;
    expect(cat.children.map((c) => c.code)).toEqual(['B50.0', 'B50.8', 'B50.9']);
    expect(cat.label).toBe('Paludisme à Plasmodium falciparum');
    const chapter = (await get(doctor, '/api/icd10/XV/')).json() as TIcd10Detail;
    expect(chapter.parents).toEqual([]);
    expect(chapter.children.map((c) => c.code)).toContain('O80-O84');
  });

  it('answers 404 for a code that is not in the catalogue', async () => {
    const res = await get(doctor, '/api/icd10/B50.7/');
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toContain('CIM-10');
  });
});

describe('access and validation', () => {
  it('refuses an anonymous request (401) and a secretary (403)', async () => {
    expect((await get(null, '/api/icd10/?search=paludisme')).statusCode).toBe(401);
    expect((await get(secretary, '/api/icd10/?search=paludisme')).statusCode).toBe(403);
    expect((await get(secretary, '/api/icd10/B50.9/')).statusCode).toBe(403);
  });

  it('serves doctors, head doctors, midwives and nurses', async () => {
    for (const actor of [doctor, headDoctor, midwife, nurse]) {
      expect((await get(actor, '/api/icd10/?search=O80')).statusCode).toBe(200);
    }
  });

  it('answers 400 with field errors for bad parameters', async () => {
    const tooBig = await get(doctor, '/api/icd10/?page_size=500');
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json()).toHaveProperty('page_size');
    const kind = await get(doctor, '/api/icd10/?kind=disease');
    expect(kind.statusCode).toBe(400);
    expect(kind.json()).toHaveProperty('kind');
    const long = await get(doctor, `/api/icd10/?search=${'a'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toHaveProperty('search');
    expect((await get(doctor, '/api/icd10/B50_9/')).statusCode).toBe(400);
  });

  it('treats odd search text as text (no wildcard, no error) and a blank search as browsing', async () => {
    for (const term of ['%', 'B5%', '_', "l'", '--', '\\', 'a']) {
      const res = await get(doctor, `/api/icd10/?search=${encodeURIComponent(term)}`);
      expect(res.statusCode, term).toBe(200);
    }
    expect((await search('%')).count).toBe(0);
    expect((await search('_')).count).toBe(0);
    expect((await search('   ')).count).toBe(22);
  });
});

describe('import of a full CIM-10 file', () => {
  let ictx: TestContext;
  beforeAll(async () => {
    ictx = await createTestApp();
    await ensureIcd10Catalogue(ictx.database.db);
  });
  afterAll(() => ictx.close());
  const row = async (code: string) =>
    (await ictx.database.db.select().from(icd10Codes).where(eq(icd10Codes.code, code)))[0];

  it('inserts, updates, keeps the other language, derives the structure and reports rejected lines', async () => {
    const report = await importIcd10File(ictx.database.db, FIXTURE);
    expect(report).toMatchObject({ lines: 11, inserted: 4, updated: 1, unchanged: 1 });
    expect(report.rejected).toEqual([
      { line: 9, reason: 'no block holds D49' },
      { line: 10, reason: 'invalid code "XYZ" (expected e.g. B50 or B50.9)' },
      { line: 11, reason: 'no label for B99.9' },
      { line: 12, reason: 'unknown category K99 for K99.1' },
      { line: 13, reason: 'duplicate code A06.3 (first on line 4)' },
    ]);
    // Updated: the French label from the file, the shipped English label kept, still a shipped row.
    expect(await row('B50.9')).toMatchObject({
      labelFr: 'Paludisme à Plasmodium falciparum, sans précision; forme simple',
      labelEn: 'Plasmodium falciparum malaria, unspecified',
      imported: false,
      common: true,
    });
    expect(await row('A06.5')).toMatchObject({
      kind: 'code',
      parentCode: 'A06',
      chapter: 'I',
      labelFr: 'Abcès amibien du poumon',
      imported: true,
      common: false,
    });
    expect(await row('A21')).toMatchObject({ kind: 'category', parentCode: 'A20-A28', chapter: 'I' });
    expect(await row('A21.0')).toMatchObject({
      parentCode: 'A21',
      labelFr: 'Tularémie ulcéroglandulaire',
      labelEn: 'Tularémie ulcéroglandulaire',
    });
    expect(await row('D49')).toBeUndefined();
    expect(await row('K99.1')).toBeUndefined();
  });

  it('changes nothing when the same file is imported again', async () => {
    const report = await importIcd10File(ictx.database.db, FIXTURE);
    expect(report).toMatchObject({ lines: 11, inserted: 0, updated: 0, unchanged: 6 });
  });

  it('reads TSV and comma-separated CSV with quotes, and explicit kind and parent columns', async () => {
    const tsv = 'code\tkind\tparent_code\tlabel\nA23.0\tcode\tA23\tBrucellosis due to Brucella melitensis\n';
    expect(await importIcd10Text(ictx.database.db, tsv)).toMatchObject({ inserted: 1, rejected: [] });
    expect(await row('A23.0')).toMatchObject({ labelEn: 'Brucellosis due to Brucella melitensis' });
    const csv =
      'code,label_fr,label_en\r\n"A23.1","Brucellose à Brucella abortus, forme aiguë","Brucellosis due to Brucella abortus"\r\nA23.2,Brucellose à Brucella suis,Brucellosis due to Brucella suis,\r\n';
    const report = await importIcd10Text(ictx.database.db, csv);
    expect(report.inserted).toBe(2);
    expect(await row('A23.1')).toMatchObject({ labelFr: 'Brucellose à Brucella abortus, forme aiguë' });
    const wrongKind = await importIcd10Text(ictx.database.db, 'code\tkind\tlabel_fr\nA23.3\tcategory\tx\n');
    expect(wrongKind.rejected[0]!.reason).toContain('does not match');
  });

  it('refuses a file whose header names no code or no label column', async () => {
    await expect(importIcd10Text(ictx.database.db, 'cim;texte\nA00;x\n')).rejects.toBeInstanceOf(
      Icd10ImportRefused,
    );
    await expect(importIcd10Text(ictx.database.db, 'code;kind\nA00;category\n')).rejects.toThrow(
      /label column/,
    );
    await expect(importIcd10File(ictx.database.db, '/nonexistent/file.csv')).rejects.toBeInstanceOf(
      Icd10ImportRefused,
    );
  });

  it('makes the imported codes searchable', async () => {
    const h = await journeyHospital(ictx, { code: 'IMP' });
    const actor = await h.as('DOCTOR');
    const res = await ictx.app.inject({
      method: 'GET',
      url: `/api/icd10/?search=${encodeURIComponent('amibien du poumon')}`,
      headers: actor.headers,
    });
    expect(res.json().results[0].code).toBe('A06.5');
  });
});
