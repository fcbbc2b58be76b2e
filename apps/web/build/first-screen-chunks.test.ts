import { isBarrel, type ModuleFacts, staticClosure } from './first-screen-chunks';

/** A module graph as the bundler describes it: ids, transformed code and resolved static imports. */
function graph(modules: Record<string, ModuleFacts>) {
  return { getModuleInfo: (id: string) => modules[id] ?? null };
}

const NM = '/app/node_modules';
const modules: Record<string, ModuleFacts> = {
  '/app/src/main.tsx': {
    code: 'import { Button } from "@ui/core";\nimport { api } from "./api.ts";\nimport "./styles.css";\nrender(Button, api);',
    importedIds: [`${NM}/@ui/core/index.mjs`, '/app/src/api.ts', '/app/src/styles.css'],
  },
  '/app/src/api.ts': { code: 'export const api = 1;', importedIds: [] },
  '/app/src/styles.css': { code: '', importedIds: [] },
  '/app/src/pages/Table.tsx': {
    code: 'import { Table, Button as B } from "@ui/core";\nexport default () => [Table, B];',
    importedIds: [`${NM}/@ui/core/index.mjs`],
  },
  [`${NM}/@ui/core/index.mjs`]: {
    code: [
      '/** @license MIT */',
      'import { Button } from "./components/Button.mjs";',
      'import { Table } from "./components/Table.mjs";',
      'export { Icon as UiIcon } from "./components/Icon.mjs";',
      'export { Button, Table };',
    ].join('\n'),
    importedIds: [
      `${NM}/@ui/core/components/Button.mjs`,
      `${NM}/@ui/core/components/Table.mjs`,
      `${NM}/@ui/core/components/Icon.mjs`,
    ],
  },
  [`${NM}/@ui/core/components/Button.mjs`]: {
    code: 'import { box } from "../box.mjs";\nexport const Button = box();',
    importedIds: [`${NM}/@ui/core/box.mjs`],
  },
  [`${NM}/@ui/core/components/Table.mjs`]: { code: 'export const Table = 1;', importedIds: [] },
  [`${NM}/@ui/core/components/Icon.mjs`]: { code: 'export const Icon = 1;', importedIds: [] },
  [`${NM}/@ui/core/box.mjs`]: { code: 'export const box = () => 1;', importedIds: [] },
};

describe('first screen chunks', () => {
  it('recognises a barrel: a package module of imports and exports only', () => {
    const index = `${NM}/@ui/core/index.mjs`;
    expect(isBarrel(index, modules[index]?.code ?? null)).toBe(true);
    const button = `${NM}/@ui/core/components/Button.mjs`;
    expect(isBarrel(button, modules[button]?.code ?? null)).toBe(false);
    // The app's own modules are never treated as barrels, even when they only re-export.
    expect(isBarrel('/app/src/index.ts', 'export { a } from "./a";')).toBe(false);
  });

  it('follows through a barrel only the components a page asks for, and every other import whole', () => {
    const closure = staticClosure(['/app/src/main.tsx'], graph(modules));
    expect([...closure].sort()).toEqual(
      [
        '/app/src/main.tsx',
        '/app/src/api.ts',
        '/app/src/styles.css',
        `${NM}/@ui/core/index.mjs`,
        `${NM}/@ui/core/components/Button.mjs`,
        `${NM}/@ui/core/box.mjs`,
      ].sort(),
    );
  });

  it('reaches what a second root asks for, renamed imports included', () => {
    const closure = staticClosure(['/app/src/pages/Table.tsx'], graph(modules));
    expect(closure.has(`${NM}/@ui/core/components/Table.mjs`)).toBe(true);
    expect(closure.has(`${NM}/@ui/core/components/Button.mjs`)).toBe(true);
    expect(closure.has(`${NM}/@ui/core/components/Icon.mjs`)).toBe(false);
    expect(closure.has('/app/src/api.ts')).toBe(false);
  });
});
