/**
 * One name for every list's text search (issue 36, decision 0061): `search`, declared by the shared `zSearch()`;
 * `q`, the former name of six lists, still accepted for one release and declared deprecated in the OpenAPI
 * document. `GET /api/medications/?search=paracetamol` returned the whole list (pharmacy.test.ts holds that case).
 */
import { ZPageQuery, zSearch } from '@greensen/shared/contracts/common';
import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { serializerCompiler, validatorCompiler } from '../plugins/errors.js';
import { acceptDeprecatedSearchAlias } from './pagination.js';

/** The lists the issue names (invoices' text search is the payers' list: invoices filter by number). */
const LISTS = [
  '/api/patients/',
  '/api/admissions/',
  '/api/consultations/',
  '/api/exams/',
  '/api/exams/catalogue/',
  '/api/admin/staff/',
  '/api/notes/',
  '/api/medications/',
  '/api/pharmacy/stock/',
  '/api/medical-acts/',
  '/api/payers/',
  '/api/care/patients/',
  '/api/documents/',
  '/api/document-templates/',
  '/api/hospitalizations/',
  '/api/chat/search/',
];

type Parameter = { name: string; in: string; schema?: { deprecated?: boolean }; description?: string };

let ctx: TestContext;
let paths: Record<string, { get?: { parameters?: Parameter[] } }>;
beforeAll(async () => {
  ctx = await createTestApp();
  paths = (await ctx.app.inject('/api/docs/openapi.json')).json().paths;
});
afterAll(() => ctx.close());

describe('the OpenAPI document', () => {
  it.each(LISTS)('%s declares `search`, and `q` as deprecated', (path) => {
    const parameters = paths[path]?.get?.parameters ?? [];
    const search = parameters.find((p) => p.name === 'search' && p.in === 'query');
    const q = parameters.find((p) => p.name === 'q' && p.in === 'query');
    expect(search, path).toBeDefined();
    expect(search?.schema?.deprecated).toBeUndefined();
    expect(q?.schema?.deprecated, path).toBe(true);
    expect(q?.description).toMatch(/former name of `search`/);
  });

  it('has no list left that searches with `q` alone', () => {
    const qOnly = Object.entries(paths).filter(([, ops]) => {
      const names = (ops.get?.parameters ?? []).map((p) => p.name);
      return names.includes('q') && !names.includes('search');
    });
    expect(qOnly.map(([path]) => path)).toEqual([]);
  });
});

describe('the deprecated `q`', () => {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRoute', acceptDeprecatedSearchAlias);
  const seen: unknown[] = [];
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/list/', { schema: { querystring: ZPageQuery.extend({ ...zSearch() }) } }, async (request) => {
    seen.push(request.query);
    return {};
  });
  r.get(
    '/required/',
    { schema: { querystring: ZPageQuery.extend({ ...zSearch({ min: 2, required: true }) }) } },
    async (request) => request.query,
  );
  r.get('/other/', { schema: { querystring: ZPageQuery } }, async (request) => request.query);
  afterAll(() => app.close());

  it('becomes `search` before validation and is dropped; `search` wins when both are given', async () => {
    await app.inject('/list/?q=%20parac%20');
    await app.inject('/list/?search=amox&q=parac');
    await app.inject('/list/?search=amox');
    expect(seen).toEqual([
      { page: 1, page_size: 20, search: 'parac' },
      { page: 1, page_size: 20, search: 'amox' },
      { page: 1, page_size: 20, search: 'amox' },
    ]);
  });

  it('satisfies a required `search`, and is validated as `search` is', async () => {
    expect((await app.inject('/required/?q=box')).json()).toMatchObject({ search: 'box' });
    expect((await app.inject('/required/?q=b')).statusCode).toBe(400);
    expect((await app.inject('/required/')).statusCode).toBe(400);
  });

  it('is left alone on a route without a text search', async () => {
    expect((await app.inject('/other/?q=x')).json()).toEqual({ page: 1, page_size: 20 });
  });
});
