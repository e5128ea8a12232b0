import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Config } from '../config.js';
import { openDatabase, sqliteFile } from '../db/database.js';
import { backupRepository } from './backup.repository.js';

/**
 * `parley backup <dir>` / `parley restore <dir>` (docs/deploy.md, "Backup and restore").
 * A backup directory holds `parley.db` (SQLite's online backup: one consistent snapshot taken
 * while the server writes), `media/` (the content-addressed files the snapshot refers to,
 * copied only when not there yet) and `manifest.json`, written last: a directory without it
 * is not a backup. On PostgreSQL the database is pg_dump's; this copies the media only.
 */

export const MANIFEST = 'manifest.json';
const DB_FILE = 'parley.db';
const FORMAT = 1;
const SHA256 = /^[0-9a-f]{64}$/;

export interface Manifest {
  format: number;
  kind: 'sqlite' | 'media-only';
  created_at: string;
  parley_version: string;
  /** The newest migration of the database copied (null: media only). */
  schema: string | null;
  database: { file: string; bytes: number; sha256: string } | null;
  counts: Record<string, number>;
  media: { sha256: string; bytes: number }[];
}

export class BackupError extends Error {}

export interface BackupIo {
  out(line: string): void;
}

function version(): string {
  const pkg = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const mediaPath = (root: string, sha: string) => path.join(root, sha.slice(0, 2), sha);

/** What the snapshot's media rows refer to (originals and thumbnails), each once. */
function referenced(rows: { sha256: string; thumb_sha256: string | null }[]): string[] {
  const all = new Set<string>();
  for (const r of rows) {
    all.add(r.sha256);
    if (r.thumb_sha256) all.add(r.thumb_sha256);
  }
  return [...all].filter((s) => SHA256.test(s)).sort();
}

/**
 * Copies each media file into the backup unless it is there already (same name, same size: the
 * name is the content's hash), checking the bytes against the name as they are copied.
 */
async function copyMedia(from: string, to: string, shas: string[]): Promise<Manifest['media']> {
  const out: Manifest['media'] = [];
  const missing: string[] = [];
  for (const sha of shas) {
    const source = mediaPath(from, sha);
    const target = mediaPath(to, sha);
    const size = await stat(source).then(
      (s) => s.size,
      () => null,
    );
    if (size === null) {
      missing.push(sha);
      continue;
    }
    const have = await stat(target).then(
      (s) => s.size,
      () => null,
    );
    if (have !== size) {
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.part`;
      await copyFile(source, temp);
      if ((await sha256Of(temp)) !== sha) {
        await rm(temp, { force: true });
        throw new BackupError(`media file ${source} does not match its hash: not backed up`);
      }
      await rename(temp, target);
    }
    out.push({ sha256: sha, bytes: size });
  }
  if (missing.length > 0) {
    throw new BackupError(
      `${missing.length} media file(s) the database refers to are missing from ${from} (first: ${missing[0]})`,
    );
  }
  return out;
}

async function writeManifest(dir: string, manifest: Manifest) {
  const temp = path.join(dir, `${MANIFEST}.part`);
  await writeFile(temp, JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  await rename(temp, path.join(dir, MANIFEST));
}

export const PG_BACKUP_HELP = `This server uses PostgreSQL (DATABASE_URL): back the database up with PostgreSQL's own tools,
then the media files with this command, in that order (media are never deleted, so the files
copied after the dump cover every row in it):

  pg_dump --format=custom --file=<dir>/parley.pgdump "$DATABASE_URL"
  npm run parley -- backup <dir> --media-only

Restore: pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" <dir>/parley.pgdump,
then npm run parley -- restore <dir> (the media).`;

/** Backs the server up into `dir` while it runs. */
export async function backup(
  config: Config,
  dir: string,
  opts: { mediaOnly: boolean },
  io: BackupIo,
): Promise<Manifest> {
  if (config.databaseUrl && !opts.mediaOnly) throw new BackupError(PG_BACKUP_HELP);
  const target = path.resolve(dir);
  await mkdir(path.join(target, 'media'), { recursive: true, mode: 0o700 });
  await chmod(target, 0o700);
  // Until the new manifest is written, this directory is not a (complete) backup.
  await rm(path.join(target, MANIFEST), { force: true });

  let manifest: Manifest;
  if (opts.mediaOnly) {
    const database = await openDatabase(config);
    try {
      const rows = await backupRepository.mediaRows(database.db);
      const media = await copyMedia(config.mediaDir, path.join(target, 'media'), referenced(rows));
      manifest = {
        format: FORMAT,
        kind: 'media-only',
        created_at: new Date().toISOString(),
        parley_version: version(),
        schema: null,
        database: null,
        counts: { media: rows.length },
        media,
      };
    } finally {
      await database.close();
    }
  } else {
    const source = sqliteFile(config);
    if (!existsSync(source)) throw new BackupError(`no database at ${source}`);
    const temp = path.join(target, `${DB_FILE}.part`);
    await rm(temp, { force: true });
    const live = new SQLite(source, { fileMustExist: true });
    try {
      live.pragma('busy_timeout = 5000');
      // All pages in one step after the first: one read transaction sees one committed state,
      // and the server's writes (WAL) go on meanwhile; steps of a few pages would restart
      // whenever another connection writes in between.
      await live.backup(temp, { progress: () => 0x7fffffff });
    } finally {
      live.close();
    }
    const copy = new SQLite(temp);
    let snapshot: ReturnType<typeof backupRepository.snapshot>;
    try {
      snapshot = backupRepository.snapshot(copy);
    } finally {
      copy.close();
    }
    if (snapshot.integrity !== 'ok') {
      throw new BackupError(`the copied database fails integrity_check: ${snapshot.integrity}`);
    }
    // The files of every media row in the snapshot: written before their rows, never deleted.
    const media = await copyMedia(
      config.mediaDir,
      path.join(target, 'media'),
      referenced(snapshot.media),
    );
    const dbFile = path.join(target, DB_FILE);
    await rename(temp, dbFile);
    await chmod(dbFile, 0o600);
    manifest = {
      format: FORMAT,
      kind: 'sqlite',
      created_at: new Date().toISOString(),
      parley_version: version(),
      schema: snapshot.schema,
      database: {
        file: DB_FILE,
        bytes: (await stat(dbFile)).size,
        sha256: await sha256Of(dbFile),
      },
      counts: snapshot.counts,
      media,
    };
  }
  await writeManifest(target, manifest);
  const bytes = manifest.media.reduce((sum, m) => sum + m.bytes, 0);
  io.out(
    `Backed up ${manifest.kind === 'sqlite' ? `the database (${describeCounts(manifest.counts)}) and ` : ''}` +
      `${manifest.media.length} media files (${bytes} bytes) to ${target}`,
  );
  return manifest;
}

function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
}

async function isEmptyDir(dir: string, ignore: string[] = []): Promise<boolean> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (ignore.includes(name)) continue;
    const full = path.join(dir, name);
    if (!(await stat(full)).isDirectory() || !(await isEmptyDir(full))) return false;
  }
  return true;
}

/**
 * Brings a backup back into the configured data directory (and media directory): every
 * checksum is verified before anything is written; an existing database or media files are
 * kept unless `force`.
 */
export async function restore(
  config: Config,
  dir: string,
  opts: { force: boolean },
  io: BackupIo,
): Promise<Manifest> {
  const source = path.resolve(dir);
  const manifestFile = path.join(source, MANIFEST);
  if (!existsSync(manifestFile)) {
    throw new BackupError(`${source} has no ${MANIFEST}: not a complete backup`);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  if (manifest.format !== FORMAT) {
    throw new BackupError(`unknown backup format ${String(manifest.format)}`);
  }
  if (manifest.kind === 'sqlite' && config.databaseUrl) {
    throw new BackupError('this backup holds a SQLite database but DATABASE_URL is set');
  }

  // Verify everything first: a restore never stops halfway through for a bad file.
  if (manifest.database) {
    const file = path.join(source, manifest.database.file);
    if (!existsSync(file) || (await sha256Of(file)) !== manifest.database.sha256) {
      throw new BackupError(`${file} does not match the manifest's checksum`);
    }
  }
  for (const m of manifest.media) {
    const file = mediaPath(path.join(source, 'media'), m.sha256);
    if (!SHA256.test(m.sha256) || !existsSync(file) || (await sha256Of(file)) !== m.sha256) {
      throw new BackupError(`media file ${m.sha256} is missing or does not match its checksum`);
    }
  }

  const dbFile = sqliteFile(config);
  if (!opts.force) {
    const taken = manifest.database && existsSync(dbFile);
    if (taken || !(await isEmptyDir(config.mediaDir, ['tmp']))) {
      throw new BackupError(
        `${taken ? dbFile : config.mediaDir} is not empty: restore into an empty data directory, or add --force to overwrite (stop the server first)`,
      );
    }
  }

  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  for (const m of manifest.media) {
    const target = mediaPath(config.mediaDir, m.sha256);
    if (existsSync(target) && (await stat(target)).size === m.bytes) continue;
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await copyFile(mediaPath(path.join(source, 'media'), m.sha256), `${target}.part`);
    await rename(`${target}.part`, target);
  }
  if (manifest.database) {
    const temp = `${dbFile}.part`;
    await copyFile(path.join(source, manifest.database.file), temp);
    await chmod(temp, 0o600);
    // The old database's log and index would be read with the new file: gone first.
    await rm(`${dbFile}-wal`, { force: true });
    await rm(`${dbFile}-shm`, { force: true });
    await rename(temp, dbFile);
    const restored = new SQLite(dbFile);
    try {
      const integrity = backupRepository.snapshot(restored).integrity;
      if (integrity !== 'ok') throw new BackupError(`restored database: ${integrity}`);
    } finally {
      restored.close();
    }
  }
  io.out(
    `Restored ${manifest.database ? `the database (${describeCounts(manifest.counts)}) and ` : ''}` +
      `${manifest.media.length} media files from the backup of ${manifest.created_at}`,
  );
  if (!manifest.database) {
    io.out('Media only: restore the PostgreSQL database with pg_restore (docs/deploy.md).');
  }
  return manifest;
}
