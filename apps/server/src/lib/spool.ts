import { createHash } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/** An upload written to a temp file: never held whole in memory. */
export interface Spooled {
  /** The temp file (removed when the upload went past the cap). */
  path: string;
  size: number;
  sha256: string;
  /** More than `cap` bytes came: nothing past the cap was written, the temp file is gone. */
  overflow: boolean;
}

/** The temp file could not be written (disk full, read-only): `cause` says why. */
export class SpoolWriteError extends Error {
  constructor(cause: unknown) {
    super('spool write failed', { cause });
  }
}

/**
 * Writes all of `bytes`. A write may take only part of them without an error (the disk filled
 * up during it: POSIX's short write; only the next write says ENOSPC), and FileHandle.write
 * reports that in bytesWritten: unchecked, the last chunk of an upload came out cut, the hash
 * still that of the whole, and the cut file moved into the store as if whole.
 */
export async function writeAll(file: FileHandle, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await file.write(bytes, done, bytes.length - done);
    done += bytesWritten;
  }
}

/**
 * Streams `source` to `target` while hashing and counting. Past `cap` bytes it stops writing
 * and keeps reading to the end (discarding), so a multipart parser can finish the request and
 * the client still gets the answer. A write that fails (the disk full or read-only) likewise:
 * the source is read to its end, the partial file removed, then SpoolWriteError is thrown.
 */
export async function spool(source: Readable, target: string, cap: number): Promise<Spooled> {
  const hash = createHash('sha256');
  let size = 0;
  let overflow = false;
  let failure: { cause: unknown } | null = null;
  let file: FileHandle | null = null;
  try {
    file = await open(target, 'wx', 0o600);
  } catch (err) {
    failure = { cause: err };
  }
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (overflow) continue;
      size += chunk.length;
      if (size > cap) {
        overflow = true;
        continue;
      }
      hash.update(chunk);
      if (failure || !file) continue;
      try {
        await writeAll(file, chunk);
      } catch (err) {
        failure = { cause: err };
      }
    }
    if (file) {
      const closing = file;
      file = null;
      await closing.close();
    }
  } catch (err) {
    await file?.close().catch(() => undefined);
    await rm(target, { force: true });
    throw err;
  }
  if (failure) {
    await rm(target, { force: true }).catch(() => undefined);
    throw new SpoolWriteError(failure.cause);
  }
  if (overflow) await rm(target, { force: true });
  return { path: target, size: overflow ? cap + 1 : size, sha256: hash.digest('hex'), overflow };
}
