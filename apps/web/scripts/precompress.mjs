// @ts-check
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The text files worth compressing; images, fonts and media are compressed already. */
const TEXT_FILE = /\.(?:html|js|mjs|css|svg|json|txt|map|webmanifest|xml)$/i;

/**
 * @typedef {object} Precompressed
 * @property {string} file relative to the directory, with forward slashes
 * @property {number} bytes
 * @property {number | null} br null when compressing did not make it smaller (nothing written)
 * @property {number | null} gzip
 */

/**
 * @param {string} dir
 * @returns {AsyncGenerator<string>}
 */
async function* filesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every text
 * file under `dir`, each only when it is smaller than the file. The server sends the one the
 * browser accepts (@fastify/static `preCompressed`), so nothing is compressed per request.
 * @param {string} dir
 * @returns {Promise<Precompressed[]>}
 */
export async function precompressDir(dir) {
  /** @type {Precompressed[]} */
  const done = [];
  for await (const file of filesUnder(dir)) {
    if (!TEXT_FILE.test(file)) continue;
    const raw = await readFile(file);
    const [br, gzipped] = await Promise.all([
      brotli(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
      gz(raw, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    /** @param {string} ext @param {Buffer} packed */
    const keep = async (ext, packed) => {
      if (packed.length >= raw.length) return null;
      await writeFile(file + ext, packed);
      return packed.length;
    };
    done.push({
      file: path.relative(dir, file).split(path.sep).join('/'),
      bytes: raw.length,
      br: await keep('.br', br),
      gzip: await keep('.gz', gzipped),
    });
  }
  return done;
}

/**
 * Vite build step: precompresses the output directory once everything is written.
 * @returns {import('vite').Plugin}
 */
export function precompress() {
  let outDir = 'dist';
  return {
    name: 'parley:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await precompressDir(outDir);
      /** @param {(f: Precompressed) => number | null} pick */
      const sum = (pick) => files.reduce((s, f) => s + (pick(f) ?? f.bytes), 0);
      this.info(
        `precompressed ${files.length} files: ${sum((f) => f.bytes)} bytes, ` +
          `brotli ${sum((f) => f.br)}, gzip ${sum((f) => f.gzip)}`,
      );
    },
  };
}
