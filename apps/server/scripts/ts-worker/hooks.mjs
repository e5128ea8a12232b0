// Module hooks (node:module register) for a worker thread run from src/: a `.js` import that
// names a TypeScript source resolves to the `.ts` file, which TypeScript compiles alone
// (transpileModule: types erased, nothing checked; `npm run typecheck` checks them). Loading
// TypeScript takes seconds on a busy machine, so each output is kept, by the hash of its
// source, in node_modules/.cache; a worker whose sources did not change never loads it.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const CACHE = fileURLToPath(
  new URL('../../../../node_modules/.cache/parley-ts-worker/', import.meta.url),
);
mkdirSync(CACHE, { recursive: true });

let typescript;
async function compile(file, source) {
  typescript ??= (await import('typescript')).default;
  const ts = typescript;
  return ts.transpileModule(source, {
    fileName: file,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      inlineSourceMap: true,
    },
  }).outputText;
}

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const fromTs = context.parentURL?.endsWith('.ts') && specifier.startsWith('.');
    if (!fromTs || !specifier.endsWith('.js') || err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const source = await readFile(file, 'utf8');
  const cached = `${CACHE}${createHash('sha256').update(file).update('\0').update(source).digest('hex')}.mjs`;
  let output;
  try {
    output = await readFile(cached, 'utf8');
  } catch {
    output = await compile(file, source);
    // Written whole or not at all: workers starting together may compile the same file.
    const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(partial, output);
    await rename(partial, cached);
  }
  return { format: 'module', source: output, shortCircuit: true };
}
