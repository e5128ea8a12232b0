// The local servers the server's tests use for the channels' outside services (Meta's Graph
// API, Telegram's Bot API: apps/server/test/*-api-server.ts), for a benchmark: the TypeScript
// files are transpiled as they are (types dropped, nothing else) into a temp dir and imported,
// so the bench talks to the very servers the tests hold to the published references.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './workspace.mjs';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const TEST = path.join(ROOT, 'apps/server/test');
/** The test servers and the one helper they import. */
const FILES = ['loopback', 'whatsapp-graph-api-server', 'telegram-bot-api-server'];

let loaded = null;

/** `{ WhatsAppGraphServer, postWebhook, hubSignature, TelegramBotApiServer }`. */
export async function loadChannelServers() {
  if (loaded) return loaded;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-servers-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  for (const name of FILES) {
    const source = readFileSync(path.join(TEST, `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(path.join(dir, `${name}.js`), outputText);
  }
  const graph = await import(pathToFileURL(path.join(dir, 'whatsapp-graph-api-server.js')).href);
  const telegram = await import(pathToFileURL(path.join(dir, 'telegram-bot-api-server.js')).href);
  rmSync(dir, { recursive: true, force: true });
  loaded = { ...graph, ...telegram };
  return loaded;
}
