import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An upload written to a temp file: never held whole in memory. */
export interface Spooled {
  /** The temp file (removed when the upload went past the cap). */
  path: string;
  size: number;
  sha256: string;
  /** More than `cap` bytes came: nothing past the cap was written, the temp file is gone. */
  overflow: boolean;
}

/**
 * Streams `source` to `target` while hashing and counting. Past `cap` bytes it stops writing
 * and keeps reading to the end (discarding), so a multipart parser can finish the request and
 * the client still gets the answer.
 */
export async function spool(source: Readable, target: string, cap: number): Promise<Spooled> {
  const hash = createHash('sha256');
  let size = 0;
  let overflow = false;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (overflow) return done();
      size += chunk.length;
      if (size > cap) {
        overflow = true;
        return done();
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    await rm(target, { force: true });
    throw err;
  }
  if (overflow) await rm(target, { force: true });
  return { path: target, size: overflow ? cap + 1 : size, sha256: hash.digest('hex'), overflow };
}
