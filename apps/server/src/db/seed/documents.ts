import { deflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { signAccessToken } from '../../lib/tokens.js';
import { shippedId } from '../../modules/documents/shipped.js';

/**
 * The demo's documents (issue 19), made through the API as the demo's own staff once the rest of the demo is in
 * place (they need the file storage and the PDF maker, which the database seed does not have): HGG's adapted
 * French medical certificate, a few issued documents (one cancelled) and two files added to a patient's record,
 * drawn at seed time (no binary file in the repository).
 */

/** A small PNG (a "scanned" card: a light page with dark lines), drawn here. */
export function demoPng(width = 160, height = 100): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const line = y > 12 && y % 12 < 2 && x > 10 && x < width - 10 - (y % 5) * 8;
      const photo = x > 10 && x < 50 && y > 20 && y < 70;
      const [r, g, b] = photo ? [120, 140, 170] : line ? [60, 60, 70] : [240, 238, 228];
      row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF (an old results sheet), written by hand: plain text in a standard font. */
export function demoPdf(lines: string[]): Buffer {
  const text = lines
    .map((l, i) => `BT /F1 12 Tf 60 ${760 - i * 20} Td (${l.replace(/[()\\]/g, '')}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

function multipart(fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer }) {
  const boundary = `greensen-demo-${Date.now().toString(36)}`;
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: Buffer.concat([
      Buffer.from(
        `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

const CERTIFICATE = `# Certificat médical

Je soussigné(e), **{{ author.display_name }}**, {{ author.role }} au service des urgences de {{ hospital.name }}, certifie avoir examiné ce jour :

**{{ patient.full_name }}**, né(e) le {{ patient.birth_date }} ({{ patient.age }} ans), dossier n° {{ patient.record_number }}.

{% if consultation.conclusion != "" %}Constatations : {{ consultation.conclusion }}

{% endif %}Certificat établi à la demande de l’intéressé(e) et remis en main propre pour servir et valoir ce que de droit.

Fait à Goma, le {{ date.today_long }}.

**{{ author.display_name }}**
Signature et cachet du service
`;

export async function seedDemoDocuments(
  app: FastifyInstance,
): Promise<{ documents: number; uploads: number }> {
  const db = app.database.db;
  const hgg = (await db.execute<{ id: string }>(sql`select id from hospitals where code = 'HGG'`)).rows[0];
  if (!hgg) return { documents: 0, uploads: 0 };
  const users = await db.execute<{ id: string; email: string; token_version: number }>(
    sql`select id, email, token_version from users where email in
      ('admin@greensen.test', 'medecin@greensen.test', 'secretaire@greensen.test', 'chef@greensen.test')`,
  );
  const headers = async (email: string) => {
    const u = users.rows.find((r) => r.email === email);
    if (!u) throw new Error(`demo documents: no ${email}`);
    const token = await signAccessToken(app.config.jwtSecret, {
      userId: u.id,
      tokenVersion: Number(u.token_version),
    });
    return { authorization: `Bearer ${token}`, 'hospital-id': hgg.id };
  };
  const api = async (email: string, method: 'POST' | 'GET', url: string, payload?: object) => {
    const res = await app.inject({
      method,
      url,
      headers: await headers(email),
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode >= 300)
      throw new Error(`demo documents: ${method} ${url} → ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, unknown>;
  };

  // The administrator adapts Greensen's French medical certificate and makes it the hospital's.
  const model = await api('admin@greensen.test', 'POST', '/api/document-templates/', {
    kind: 'medical_certificate',
    language: 'fr',
    paper: 'A4',
    name: 'Certificat médical — Urgences HGG',
    description: 'Adapté du modèle Greensen : service des urgences, lieu « Goma ».',
    body: CERTIFICATE,
    based_on: shippedId('medical_certificate', 'fr'),
  });
  await api('admin@greensen.test', 'POST', `/api/document-templates/${model.id}/activate/`);

  const doctor = users.rows.find((r) => r.email === 'medecin@greensen.test')!.id;
  const consultations = await db.execute<{ id: string; patient_id: string }>(
    sql`select id, patient_id from consultations where hospital_id = ${hgg.id} and doctor_id = ${doctor}
      and status = 'completed' order by completed_at desc limit 3`,
  );
  const prescription = (
    await db.execute<{ id: string }>(
      sql`select id from prescriptions where hospital_id = ${hgg.id} and prescriber_id = ${doctor}
        and status in ('signed', 'partially_dispensed', 'dispensed') order by signed_at desc limit 1`,
    )
  ).rows[0];
  let documents = 0;
  const issue = async (body: object) => {
    documents += 1;
    return api('medecin@greensen.test', 'POST', '/api/documents/', body);
  };
  const [first, second, third] = consultations.rows;
  if (first) {
    await issue({ kind: 'medical_certificate', source: { type: 'consultation', id: first.id } });
    await issue({ kind: 'consultation_report', source: { type: 'consultation', id: first.id } });
  }
  if (second) {
    const cancelled = await issue({
      kind: 'sick_leave_certificate',
      source: { type: 'consultation', id: second.id },
    });
    await api('medecin@greensen.test', 'POST', `/api/documents/${cancelled.id}/cancel/`, {
      reason: 'Durée d’arrêt erronée : certificat refait',
    });
    await issue({
      kind: 'sick_leave_certificate',
      source: { type: 'consultation', id: second.id },
      text: `# Certificat d’arrêt de travail\n\nArrêt de travail de **3 jours** à compter de ce jour.\n`,
    });
  }
  if (third) await issue({ kind: 'referral_letter', source: { type: 'consultation', id: third.id } });
  if (prescription)
    await issue({ kind: 'prescription', source: { type: 'prescription', id: prescription.id } });

  // Two files added to a patient's record by the secretary: an ID card photo and an old results sheet.
  let uploads = 0;
  const patient = first?.patient_id;
  if (patient) {
    const files: { fields: Record<string, string>; file: { name: string; type: string; bytes: Buffer } }[] = [
      {
        fields: { patient, category: 'id_document', description: "Carte d'électeur (photo)" },
        file: { name: 'carte-electeur.png', type: 'image/png', bytes: demoPng() },
      },
      {
        fields: {
          patient,
          category: 'previous_results',
          document_date: new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10),
          description: 'Goutte épaisse du centre de santé de Katindo',
        },
        file: {
          name: 'resultats-katindo.pdf',
          type: 'application/pdf',
          bytes: demoPdf([
            'Centre de sante de Katindo',
            'Goutte epaisse : positive (++)',
            'TDR paludisme : positif',
          ]),
        },
      },
    ];
    for (const f of files) {
      const body = multipart(f.fields, f.file);
      const res = await app.inject({
        method: 'POST',
        url: '/api/patient-documents/',
        headers: { ...(await headers('secretaire@greensen.test')), 'content-type': body.contentType },
        payload: body.payload,
      });
      if (res.statusCode !== 201) throw new Error(`demo documents: upload → ${res.statusCode} ${res.body}`);
      uploads += 1;
    }
  }
  return { documents, uploads };
}
