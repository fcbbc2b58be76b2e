/**
 * The first screens in few requests (issue 16, docs/decisions/0017-compressed-delivery.md). Left to itself, the
 * bundler makes a chunk of every set of modules shared by the same pages: the sign-in form waited for ~30 small
 * chunks (Mantine's inputs, the API client, …), each paying the round trip on our users' links. Two chunk groups
 * fix that: `sign-in` holds everything the entry and the sign-in page import statically, `shell` everything the
 * signed-in shell, the dashboard page and the role dashboards add to it. Other pages keep the automatic splitting: they load after the
 * first screen, when the browser is idle or on navigation.
 *
 * What a page "imports statically" is walked down from its module, with one subtlety: packages such as
 * `@mantine/core` or `@tabler/icons-react` are barrels (one index that re-exports every component), so following
 * every import of a barrel would put every component used anywhere in the app into the sign-in chunk. Through a
 * barrel, the walk only follows the modules that provide the names the importing module asks for. A module the
 * walk misses is not lost: it stays in an automatic chunk, loaded when needed — only one request more.
 */

/** What the bundler tells of a module (rolldown's `ModuleInfo`, the fields used here). */
export type ModuleFacts = { code: string | null; importedIds: readonly string[] };
export type ModuleGraph = { getModuleInfo(id: string): ModuleFacts | null };

/** A barrel: a package module made of imports and exports only (comments aside). */
export function isBarrel(id: string, code: string | null): boolean {
  if (!code || !/[\\/]node_modules[\\/]/.test(id)) return false;
  const rest = code
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\b(?:import|export)\s*(?:\*\s*as\s+\w+|\*|\{[^}]*\}|\w+)?\s*(?:from\s*)?["'][^"']+["'];?/g, '')
    .replace(/\bexport\s*\{[^}]*\};?/g, '')
    .replace(/\bimport\s+\*\s+as\s+\w+\s+from\s*["'][^"']+["'];?/g, '');
  return rest.trim() === '';
}

const IMPORT_FROM =
  /\b(import|export)\s*(\{[^}]*\}|\*\s*as\s+\w+|\*|\w+(?:\s*,\s*\{[^}]*\})?)\s*from\s*["']([^"']+)["']/g;

/** The `{a, b as c}` list of an import or export clause: the names as the other module exports them. */
function clauseNames(clause: string): { imported: string; local: string }[] {
  const inner = /\{([^}]*)\}/.exec(clause)?.[1] ?? '';
  return inner
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((part) => {
      const [imported = '', local = imported] = part.split(/\s+as\s+/).map((x) => x.trim());
      return { imported, local };
    });
}

/** The module `importer` means by `specifier`: among its resolved imports, the one the specifier names. */
function resolveSpecifier(specifier: string, importedIds: readonly string[]): string | undefined {
  if (specifier.startsWith('.')) {
    const tail = specifier.replace(/^(\.\.?\/)+/, '').replace(/\.(m?js|tsx?|jsx)$/, '');
    return importedIds.find((id) => id.replace(/\.(m?js|tsx?|jsx)$/, '').endsWith(tail));
  }
  const marker = `/node_modules/${specifier}/`;
  return importedIds.find((id) => id.replaceAll('\\', '/').includes(marker));
}

/**
 * For a barrel: which module provides each exported name (`import {x} from './x.mjs'` then `export {x}`, or
 * `export {default as X} from './x.mjs'`). A name the barrel does not say is missing from the map.
 */
function barrelExports(info: ModuleFacts): Map<string, string> {
  const provider = new Map<string, string>();
  for (const match of (info.code ?? '').matchAll(IMPORT_FROM)) {
    const [, , clause = '', specifier = ''] = match;
    const target = resolveSpecifier(specifier, info.importedIds);
    if (!target) continue;
    if (clause.startsWith('*')) {
      const alias = /as\s+(\w+)/.exec(clause)?.[1];
      if (alias) provider.set(alias, target);
      continue;
    }
    for (const { imported, local } of clauseNames(clause)) {
      provider.set(local, target);
      provider.set(imported === 'default' ? local : imported, target);
    }
  }
  // `export { a as b }` at the end of an import-then-export barrel: `b` is provided by whoever provides `a`.
  for (const match of (info.code ?? '').matchAll(/\bexport\s*\{([^}]*)\}\s*;?(?!\s*from)/g)) {
    for (const { imported, local } of clauseNames(`{${match[1]}}`)) {
      const target = provider.get(imported);
      if (target) provider.set(local, target);
    }
  }
  return provider;
}

/** The modules `root` (a module id) imports statically, barrels narrowed to the names asked for. */
export function staticClosure(roots: readonly string[], graph: ModuleGraph): Set<string> {
  const seen = new Set<string>();
  const barrels = new Map<string, Map<string, string> | null>();
  const barrelOf = (id: string) => {
    if (!barrels.has(id)) {
      const info = graph.getModuleInfo(id);
      barrels.set(id, info && isBarrel(id, info.code) ? barrelExports(info) : null);
    }
    return barrels.get(id) ?? null;
  };
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (!info) continue;
    const followed = new Set<string>();
    for (const match of (info.code ?? '').matchAll(IMPORT_FROM)) {
      const [, , clause = '', specifier = ''] = match;
      const target = resolveSpecifier(specifier, info.importedIds);
      if (!target) continue;
      followed.add(target);
      const exports = barrelOf(target);
      if (!exports || clause.startsWith('*')) {
        stack.push(target);
        continue;
      }
      // Through a barrel: the barrel itself (tiny once tree-shaken) and the providers of the names used.
      seen.add(target);
      for (const { imported } of clauseNames(clause)) {
        const provider = exports.get(imported);
        if (provider) stack.push(provider);
      }
    }
    // Imports the pattern did not read (side-effect imports, CSS, generated code): followed whole.
    for (const imported of info.importedIds) {
      if (!followed.has(imported) && !barrelOf(imported)) stack.push(imported);
    }
  }
  return seen;
}

/** The entry (main.tsx) and what the providers lazy-load on every page (the toasts), with the sign-in page. */
const SIGN_IN = /[\\/]src[\\/](main|features[\\/]auth[\\/]pages[\\/]LoginPage|lib[\\/]toast-container)\.tsx$/;
/**
 * The signed-in shell, the dashboard page and the role dashboards it shows (every user lands on one), and the first
 * queries the app starts by path as it starts (app/first-queries.ts, issue 38).
 */
const SHELL =
  /[\\/]src[\\/](app[\\/]layout[\\/]AppLayout|features[\\/]dashboard[\\/](pages[\\/]DashboardPage|components[\\/]\w+Dashboard)|app[\\/]first-queries)\.tsx?$/;

/** The module ids of the graph matching `pattern`, found by walking down from the entry's imports. */
function rootsOf(pattern: RegExp, graph: ModuleGraph, all: () => Iterable<string>): string[] {
  return [...all()].filter((id) => pattern.test(id) && graph.getModuleInfo(id));
}

/**
 * The two chunk groups (rolldown `codeSplitting.groups`). `moduleIds` lists every module of the build (the
 * bundler's `moduleParsed` hook collects them: see vite.config.ts); the closures are computed once, on the
 * bundler's first question.
 */
export function firstScreenGroups(moduleIds: () => Iterable<string>) {
  let closures: { signIn: Set<string>; shell: Set<string> } | null = null;
  const closuresOf = (graph: ModuleGraph) => {
    closures ??= (() => {
      const signIn = staticClosure(rootsOf(SIGN_IN, graph, moduleIds), graph);
      const shell = staticClosure(rootsOf(SHELL, graph, moduleIds), graph);
      for (const id of signIn) shell.delete(id);
      return { signIn, shell };
    })();
    return closures;
  };
  return [
    {
      name: (id: string, graph: ModuleGraph) => (closuresOf(graph).signIn.has(id) ? 'sign-in' : null),
      debugName: 'sign-in',
      includeDependenciesRecursively: true,
      priority: 20,
    },
    {
      name: (id: string, graph: ModuleGraph) => (closuresOf(graph).shell.has(id) ? 'shell' : null),
      debugName: 'shell',
      includeDependenciesRecursively: true,
      priority: 10,
    },
  ];
}
