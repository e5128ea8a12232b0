// Facts through translation (issue 36): the corpus of bench/fixtures/translation-facts.json
// through the built server's text_v2, with the real Apertium APY (eng-spa, spa-eng, es-pt) and
// with the local DeepL (API v2) and LibreTranslate (1.x) servers of
// apps/server/test/engine-servers.ts. Prints the share of facts kept per engine and pair.
// Usage: npm run build && node bench/translation-facts.mjs [--pg postgres://…]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { startApy } from './lib/apertium.mjs';
import { printTable } from './lib/load.mjs';
import {
  createTarget,
  dropTarget,
  requireBuild,
  runCli,
  startServer,
  stopServer,
} from './lib/workspace.mjs';

requireBuild('translation-facts.mjs');
const args = process.argv.slice(2);
const pgAt = args.indexOf('--pg');
const PG = pgAt >= 0 ? args[pgAt + 1] : null;
const ROOT = path.resolve(import.meta.dirname, '..');
const PASSWORD = 'bench-password-1';
const CORPUS = JSON.parse(
  readFileSync(path.join(ROOT, 'bench/fixtures/translation-facts.json'), 'utf8'),
).sentences;
const PAIRS = [
  { from: 'en', source: 'EN', target: 'ES' },
  { from: 'es', source: 'ES', target: 'EN' },
  { from: 'es', source: 'ES', target: 'PT' },
  { from: 'pt', source: 'PT', target: 'ES' },
];

/** The local engine servers of the server tests, their types stripped (TypeScript's own). */
async function localEngines() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facts-engines-'));
  for (const name of ['engine-servers', 'loopback']) {
    const source = readFileSync(path.join(ROOT, `apps/server/test/${name}.ts`), 'utf8');
    const out = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(
      path.join(dir, `${name}.mjs`),
      out.replaceAll("'./loopback.js'", "'./loopback.mjs'"),
    );
  }
  const mod = await import(pathToFileURL(path.join(dir, 'engine-servers.mjs')).href);
  rmSync(dir, { recursive: true, force: true });
  return mod;
}

const count = (text, fact) => text.split(fact).length - 1;

async function factsKept(base, token, pair) {
  const sentences = CORPUS.filter((s) => s.lang === pair.from);
  let facts = 0;
  let kept = 0;
  const lost = [];
  for (let i = 0; i < sentences.length; i += 50) {
    const batch = sentences.slice(i, i + 50);
    const res = await fetch(`${base}/v1/seat/chat/translate/text_v2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        texts: batch.map((s) => s.text),
        source_lang: pair.source,
        target_lang: pair.target,
      }),
    });
    const json = await res.json();
    if (json.code !== '000000') throw new Error(`text_v2 answered ${JSON.stringify(json)}`);
    batch.forEach((s, j) => {
      const out = json.data.translations[j].text;
      for (const fact of new Set(s.facts)) {
        const n = count(s.text, fact);
        facts += n;
        kept += Math.min(n, count(out, fact));
        if (count(out, fact) < n) lost.push(`${fact} in: ${out}`);
      }
    });
  }
  return { sentences: sentences.length, facts, kept, lost };
}

async function main() {
  const apy = await startApy(
    ['eng-spa', 'spa-eng', 'es-pt', 'pt-es'],
    'apertium-eng-spa apertium-es-pt',
  );
  const { LocalDeepl, LocalLibreTranslate } = await localEngines();
  const deepl = await new LocalDeepl('bench-key:fx').start();
  const libre = await new LocalLibreTranslate().start();
  const engines = [
    { name: 'apertium', env: { APERTIUM_URL: apy.url } },
    { name: 'deepl', env: { DEEPL_AUTH_KEY: 'bench-key:fx', DEEPL_API_URL: deepl.url } },
    { name: 'libretranslate', env: { LIBRETRANSLATE_URL: libre.url } },
  ];
  const rows = [];
  let failed = false;
  try {
    for (const engine of engines) {
      const { target, env: baseEnv } = await createTarget(PG);
      const env = { ...baseEnv, ...engine.env, PARLEY_TRANSLATION_PROVIDERS: engine.name };
      let server = null;
      try {
        runCli(['seat:create', 'facts', '--password', PASSWORD], env);
        server = await startServer(env);
        const login = await fetch(`${server.base}/v1/seat/chat/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ account: 'facts', password: PASSWORD }),
        });
        const token = (await login.json()).data.token;
        for (const pair of PAIRS) {
          const r = await factsKept(server.base, token, pair);
          const share = (100 * r.kept) / r.facts;
          if (engine.name === 'apertium' && r.kept < r.facts) failed = true;
          rows.push([
            engine.name,
            `${pair.source} → ${pair.target}`,
            r.sentences,
            r.facts,
            r.kept,
            `${share.toFixed(1)} %`,
          ]);
          for (const l of r.lost.slice(0, 5)) console.log(`  ${engine.name} lost ${l}`);
        }
      } finally {
        if (server) await stopServer(server);
        await dropTarget(target, env);
      }
    }
  } finally {
    apy.stop();
    await deepl.stop();
    await libre.stop();
  }
  printTable(['engine', 'pair', 'sentences', 'facts', 'kept', 'share'], rows);
  if (failed) {
    console.log('ERROR: Apertium lost facts (target: 100 %)');
    process.exit(1);
  }
}

await main();
