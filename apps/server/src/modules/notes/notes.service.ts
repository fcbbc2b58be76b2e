import type { TNote, TNoteCreate, TNoteUpdate } from '@greensen/shared/contracts/notes';
import { ZNoteCreate } from '@greensen/shared/contracts/notes';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { uuidv7 } from '../../db/schema/common.js';
import type { notes } from '../../db/schema/index.js';
import { fullName, isoRequired, patientRef, textArray } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { listReadEntry } from '../../lib/queries.js';
import { patientInHospital } from '../patients/patients.repository.js';
import {
  findNote,
  insertNote,
  listNotes,
  markNoteDeleted,
  type NoteRow,
  updateNote,
} from './notes.repository.js';

type ListFilters = { search?: string | undefined; tag?: string | undefined; pinned?: boolean | undefined };

/**
 * Notes (issue 23, decision 0034). Personal notes are their author's alone: anybody else, in any role, gets a 404
 * as for a note that does not exist. Patient notes follow the patient's clinical record (the routes let the
 * record's readers through; the patient must be the hospital's); only their author changes or deletes them.
 * Deletion is soft; every write is audited (patient notes with their patient).
 */
export class NotesService {
  constructor(private readonly app: FastifyInstance) {}

  private view(ctx: ServiceContext, r: NoteRow): TNote {
    return {
      id: r.id,
      kind: r.patient_id ? 'patient' : 'personal',
      patient: r.patient_id ? patientRef(r) : null,
      title: r.title,
      body: r.body,
      tags: textArray(r.tags),
      pinned: r.pinned,
      author: { id: r.author_id, full_name: fullName(r.author_first, r.author_last) },
      created_at: isoRequired(r.created_at),
      updated_at: isoRequired(r.updated_at),
      can: { edit: r.author_id === actingUser(ctx).id },
    };
  }

  // Personal notes ------------------------------------------------------------------------------------------

  async listPersonal(ctx: ServiceContext, f: ListFilters, page: number, pageSize: number) {
    const { rows, count } = await listNotes(
      this.app.db,
      { hospitalId: scopedHospital(ctx).id, personalOf: actingUser(ctx).id, ...f },
      page,
      pageSize,
    );
    return { count, rows: rows.map((r) => this.view(ctx, r)) };
  }

  private async findPersonal(ctx: ServiceContext, id: string, lock = false, q: Queryable = this.app.db) {
    const row = await findNote(q, scopedHospital(ctx).id, id, lock);
    // Another person's note, or a patient note, does not exist on these routes.
    if (!row || row.patient_id || row.author_id !== actingUser(ctx).id) throw notFound();
    return row;
  }

  async readPersonal(ctx: ServiceContext, id: string) {
    return this.view(ctx, await this.findPersonal(ctx, id));
  }

  async create(ctx: ServiceContext, body: TNoteCreate, patientId: string | null): Promise<TNote> {
    const hospitalId = scopedHospital(ctx).id;
    const data = ZNoteCreate.parse(body);
    if (patientId) {
      if (!(await patientInHospital(this.app.db, hospitalId, patientId))) throw notFound();
    }
    const id = uuidv7();
    await this.app.db.transaction(async (tx) => {
      await insertNote(tx, {
        id,
        hospitalId,
        authorId: actingUser(ctx).id,
        patientId,
        title: data.title,
        body: data.body,
        tags: data.tags,
        pinned: data.pinned,
      });
      await this.app.audit.record(
        ctx,
        {
          action: patientId ? 'patient_note.create' : 'note.create',
          resourceType: patientId ? 'patient_note' : 'note',
          resourceId: id,
          ...(patientId ? { patientId } : {}),
          details: { tags: data.tags, pinned: data.pinned },
        },
        tx,
      );
    });
    return this.view(ctx, (await findNote(this.app.db, hospitalId, id))!);
  }

  async updatePersonal(ctx: ServiceContext, id: string, change: TNoteUpdate) {
    return this.update(ctx, id, change, 'personal');
  }

  async removePersonal(ctx: ServiceContext, id: string) {
    return this.remove(ctx, id, 'personal');
  }

  // Patient notes -------------------------------------------------------------------------------------------

  async listPatient(ctx: ServiceContext, patientId: string, f: ListFilters, page: number, pageSize: number) {
    const hospitalId = scopedHospital(ctx).id;
    if (!(await patientInHospital(this.app.db, hospitalId, patientId))) throw notFound();
    const { rows, count } = await listNotes(
      this.app.db,
      { hospitalId, patient: patientId, ...f },
      page,
      pageSize,
    );
    await this.app.audit.record(
      ctx,
      listReadEntry('patient_note.list', 'patient_note', { patient: patientId, ...f }, page, rows.length),
    );
    return { count, rows: rows.map((r) => this.view(ctx, r)) };
  }

  async updatePatientNote(ctx: ServiceContext, id: string, change: TNoteUpdate) {
    return this.update(ctx, id, change, 'patient');
  }

  async removePatientNote(ctx: ServiceContext, id: string) {
    return this.remove(ctx, id, 'patient');
  }

  // Both ----------------------------------------------------------------------------------------------------

  private async findOfKind(ctx: ServiceContext, id: string, kind: TNote['kind'], q: Queryable = this.app.db) {
    if (kind === 'personal') return this.findPersonal(ctx, id, true, q);
    const row = await findNote(q, scopedHospital(ctx).id, id, true);
    if (!row?.patient_id) throw notFound();
    if (row.author_id !== actingUser(ctx).id) throw forbidden('notes.not_author');
    return row;
  }

  private async update(ctx: ServiceContext, id: string, change: TNoteUpdate, kind: TNote['kind']) {
    const hospitalId = scopedHospital(ctx).id;
    await this.app.db.transaction(async (tx) => {
      const row = await this.findOfKind(ctx, id, kind, tx);
      const set: Partial<typeof notes.$inferInsert> = { updatedAt: new Date() };
      if (change.title !== undefined) set.title = change.title;
      if (change.body !== undefined) set.body = change.body;
      if (change.tags !== undefined) set.tags = [...new Set(change.tags)];
      if (change.pinned !== undefined) set.pinned = change.pinned;
      await updateNote(tx, id, set);
      await this.app.audit.record(
        ctx,
        {
          action: kind === 'patient' ? 'patient_note.update' : 'note.update',
          resourceType: kind === 'patient' ? 'patient_note' : 'note',
          resourceId: id,
          ...(row.patient_id ? { patientId: row.patient_id } : {}),
          details: { fields: Object.keys(change).sort() },
        },
        tx,
      );
    });
    return this.view(ctx, (await findNote(this.app.db, hospitalId, id))!);
  }

  private async remove(ctx: ServiceContext, id: string, kind: TNote['kind']) {
    return this.app.db.transaction(async (tx) => {
      const row = await this.findOfKind(ctx, id, kind, tx);
      await markNoteDeleted(tx, id);
      await this.app.audit.record(
        ctx,
        {
          action: kind === 'patient' ? 'patient_note.delete' : 'note.delete',
          resourceType: kind === 'patient' ? 'patient_note' : 'note',
          resourceId: id,
          ...(row.patient_id ? { patientId: row.patient_id } : {}),
        },
        tx,
      );
      return { ...this.view(ctx, row), can: { edit: false } };
    });
  }
}
