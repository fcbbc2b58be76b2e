import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';

/**
 * Registers multipart in a route scope of its own (the rest of the API speaks JSON only): one file, a few short
 * fields, the largest file the hospital setting allows (each request narrows it with `readUpload`'s `maxBytes`).
 */
export async function registerUploads(scope: FastifyInstance, o: { maxBytes: number; fields: number }) {
  await scope.register(multipart, {
    limits: {
      fileSize: o.maxBytes,
      files: 1,
      fields: o.fields,
      fieldSize: 4000,
      parts: o.fields + 1,
      headerPairs: 50,
    },
    throwFileSizeLimit: true,
  });
}

/**
 * Reads a multipart request with one file part named `field` and text fields (empty ones left out). A second
 * file, a file under another name or a broken body is `missing()`; a file over `maxBytes` is `tooLarge()`.
 */
export async function readUpload(
  request: FastifyRequest,
  o: { field: string; maxBytes: number; missing: () => ApiError; tooLarge: () => ApiError },
): Promise<{ fields: Record<string, string>; file: { name: string; bytes: Buffer } }> {
  if (!request.isMultipart()) throw o.missing();
  const fields: Record<string, string> = {};
  let file: { name: string; bytes: Buffer } | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: o.maxBytes, files: 1 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== o.field || file) {
          await part.toBuffer();
          throw o.missing();
        }
        file = { name: part.filename, bytes: await part.toBuffer() };
      } else if (typeof part.value === 'string' && part.value !== '') fields[part.fieldname] = part.value;
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw o.tooLarge();
    throw o.missing();
  }
  if (!file) throw o.missing();
  return { fields, file };
}

/** Where the browser may show a file itself; anything else (and every HEIC) is a download. */
const INLINE_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/webp']);

/** Sends stored bytes: never sniffed, never cached by a shared cache, inline only when asked and safe. */
export function sendFile(
  reply: FastifyReply,
  file: { bytes: Buffer; type: string; fileName: string },
  disposition: 'inline' | 'attachment',
) {
  const inline = disposition === 'inline' && INLINE_TYPES.has(file.type);
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return reply
    .type(file.type)
    .header(
      'content-disposition',
      `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    )
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
    .send(file.bytes);
}
