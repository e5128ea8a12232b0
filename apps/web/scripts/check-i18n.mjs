#!/usr/bin/env node
// Fails the build when any UI string, error code or other message lacks a translation in
// one of the four UI languages.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_MESSAGES, OTHER_MESSAGES, UI_LANGUAGES } from '@parley/protocol';
import { findEuropeanPortuguese, findProblems, loadLocales } from './i18n-check-core.mjs';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'locales');
const locales = loadLocales(dir, UI_LANGUAGES);
// The admin console's strings live apart (locales/admin/<lang>/), out of the language chunks.
const adminLocales = loadLocales(join(dir, 'admin'), UI_LANGUAGES);
const problems = [
  ...findProblems(locales, {
    errorCodes: Object.keys(ERROR_MESSAGES),
    otherMessages: Object.keys(OTHER_MESSAGES),
  }),
  ...findProblems(adminLocales).map((p) => `admin/${p}`),
  // One Portuguese: Brazilian (pt serves Brazil).
  ...findEuropeanPortuguese(locales.pt ?? {}),
  ...findEuropeanPortuguese(adminLocales.pt ?? {}).map((p) => `admin/${p}`),
];
if (problems.length > 0) {
  console.error(`i18n check failed (${problems.length} problems):`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
const count = Object.keys(locales[UI_LANGUAGES[0]]).length;
const adminCount = Object.keys(adminLocales[UI_LANGUAGES[0]]).length;
console.log(
  `i18n check passed: ${UI_LANGUAGES.join(', ')} complete (${count} keys each, ${adminCount} admin).`,
);
