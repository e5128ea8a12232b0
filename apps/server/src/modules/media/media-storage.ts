import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where media bytes live, addressed by their sha256: the same bytes are kept once, whoever
 * uploads them and however often. Local disk now; a shared volume works as is, and an
 * S3-compatible store can implement the same interface.
 */
export interface MediaStorage {
  /** A fresh path for spooling an upload before it is checked (same volume as the store). */
  tempPath(): Promise<string>;
  /** Moves a spooled file in under its hash (or drops it when those bytes are stored). */
  putFile(sha256: string, file: string): Promise<void>;
  putBuffer(sha256: string, bytes: Buffer): Promise<void>;
  /** Size in bytes, or null when nothing is stored under the hash. */
  size(sha256: string): Promise<number | null>;
  /** The bytes, or the inclusive range `start..end` of them. */
  read(sha256: string, range?: { start: number; end: number }): Readable;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * mkdir -p that reports why it failed: Node 20's recursive mkdir answers ENOENT on a read-only
 * file system (not EROFS), which would hide the store's fault. On ENOENT each missing level is
 * made one at a time, so the error is the real one (EROFS, EACCES, ENOSPC).
 */
async function makeDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
    const levels: string[] = [];
    for (let d = path.resolve(dir); d !== path.dirname(d); d = path.dirname(d)) levels.unshift(d);
    for (const level of levels) {
      try {
        await mkdir(level);
      } catch (e) {
        if ((e as { code?: string }).code !== 'EEXIST') throw e;
      }
    }
  }
}

export class LocalMediaStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  async tempPath(): Promise<string> {
    const dir = path.join(this.root, 'tmp');
    await makeDir(dir);
    return path.join(dir, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
  }

  async putFile(sha256: string, file: string): Promise<void> {
    const target = this.pathOf(sha256);
    if ((await this.size(sha256)) !== null) {
      await rm(file, { force: true });
      return;
    }
    await makeDir(path.dirname(target));
    // Atomic on one volume; two racing uploads of the same bytes write the same content.
    await rename(file, target);
  }

  async putBuffer(sha256: string, bytes: Buffer): Promise<void> {
    if ((await this.size(sha256)) !== null) return;
    const temp = await this.tempPath();
    try {
      await writeFile(temp, bytes, { mode: 0o600 });
      await this.putFile(sha256, temp);
    } catch (err) {
      // A disk that filled up mid-write keeps no partial file.
      await rm(temp, { force: true }).catch(() => undefined);
      throw err;
    }
  }

  async size(sha256: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(sha256))).size;
    } catch {
      return null;
    }
  }

  read(sha256: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(sha256), range);
  }

  private pathOf(sha256: string): string {
    // The hash is ours (computed from the bytes), never a client's string; checked anyway.
    if (!SHA256.test(sha256)) throw new Error('not a sha256');
    return path.join(this.root, sha256.slice(0, 2), sha256);
  }
}
