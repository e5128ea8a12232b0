import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress.mjs';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('precompressDir', () => {
  it('writes .br and .gz beside text files that decode to the file, and skips the rest', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'precompress-'));
    mkdirSync(path.join(dir, 'assets'));
    const js = `console.log(${JSON.stringify('parley '.repeat(300))});\n`;
    writeFileSync(path.join(dir, 'assets', 'app.js'), js);
    writeFileSync(path.join(dir, 'index.html'), `<!doctype html>${'<p>hi</p>'.repeat(40)}`);
    writeFileSync(path.join(dir, 'assets', 'photo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(path.join(dir, 'tiny.txt'), 'a');

    const done = await precompressDir(dir);

    const file = path.join(dir, 'assets', 'app.js');
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(js);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(js);
    expect(existsSync(path.join(dir, 'index.html.br'))).toBe(true);
    // Images are compressed already; a file that compression would make bigger stays alone.
    expect(existsSync(path.join(dir, 'assets', 'photo.png.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'tiny.txt.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'tiny.txt.gz'))).toBe(false);
    expect(done.find((f) => f.file === 'assets/app.js')).toMatchObject({ bytes: js.length });
    expect(done.find((f) => f.file === 'tiny.txt')).toMatchObject({ br: null, gzip: null });

    // A second run (the build's output dir reused) does not compress the compressed files.
    await precompressDir(dir);
    expect(existsSync(`${file}.br.br`)).toBe(false);
    expect(existsSync(`${file}.gz.gz`)).toBe(false);
  });
});
