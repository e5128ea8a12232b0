// A file generated from the protocol: written, or with `--check` compared with the committed
// one (exits non-zero when it differs: `npm run lint` runs the checks).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export function writeOrCheck(target, text, regenerate) {
  const name = path.relative(ROOT, target);
  if (!process.argv.includes('--check')) {
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
    return;
  }
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    /* missing counts as stale */
  }
  if (current !== text) {
    console.error(`${name} is stale: run \`${regenerate}\`.`);
    process.exit(1);
  }
  console.log(`${name} is up to date.`);
}
