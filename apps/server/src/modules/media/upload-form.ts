import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, invalidField } from '../../lib/app-error.js';
import type { MediaService, UploadForm } from './media.service.js';

/**
 * Reads the multipart upload: its text fields, and its one `file` part streamed to a temp
 * file while hashed and counted (never buffered whole). Every part is read to the end so the
 * client gets an answer even for a refused upload.
 */
export async function readUploadForm(
  request: FastifyRequest,
  media: MediaService,
): Promise<UploadForm> {
  const fields: Record<string, string> = {};
  let file: UploadForm['file'] = null;
  let problem: AppError | null = null;
  try {
    const parts = request.parts({
      limits: { fileSize: media.capFor(undefined) + 1, files: 4, fields: 16, fieldSize: 1024 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string' && !Object.hasOwn(fields, part.fieldname)) {
          fields[part.fieldname] = part.value;
        }
        continue;
      }
      if (part.fieldname !== 'file' || file) {
        problem ??= invalidField('file', 'send exactly one file part, named "file"');
        part.file.resume();
        continue;
      }
      // The kind field comes first from our client; if not, the largest cap applies here
      // and the kind's own cap is checked once the form is read.
      let spooled;
      try {
        spooled = await media.spool(part.file, fields.kind);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // The store refused it (full, read-only): the form is still read to its end, so the
        // client gets the answer rather than a reset connection.
        problem = err;
        part.file.resume();
        continue;
      }
      file = { ...spooled, fileName: part.filename };
    }
  } catch (err) {
    if (file) await rm(file.path, { force: true });
    // Disk trouble is ours (500001); anything else is a broken or cut-off form.
    if (err instanceof AppError || (err as { syscall?: string }).syscall) throw err;
    throw invalidField('file', 'malformed multipart body');
  }
  if (problem) {
    if (file) await rm(file.path, { force: true });
    throw problem;
  }
  return { fields, file };
}
