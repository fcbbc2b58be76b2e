import type { FastifyInstance } from 'fastify';

/** A multipart/form-data body with text fields and one file. */
export function multipart(
  fields: Record<string, string>,
  file?: { name: string; type: string; bytes: Buffer },
) {
  const boundary = `----greensen${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Uploads `bytes` as a patient's PDF document through `app` (as `headers`' user); returns the document's id. */
export async function uploadPatientPdf(
  app: FastifyInstance,
  headers: Record<string, string>,
  patientId: string,
  bytes: Buffer,
): Promise<string> {
  const body = multipart(
    { patient: patientId, category: 'other' },
    { name: 'scan.pdf', type: 'application/pdf', bytes },
  );
  const up = await app.inject({
    method: 'POST',
    url: '/api/patient-documents/',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  if (up.statusCode !== 201) throw new Error(`upload refused: ${up.statusCode} ${up.body}`);
  return up.json().id as string;
}
