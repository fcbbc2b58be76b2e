import type { FastifyInstance } from 'fastify';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { findStay, lockStay } from './hospitalizations.repository.js';
import { findNote, findStayNote, insertNote, stayNotes } from './progress-notes.repository.js';
import { stayIsOpen } from './stay-rules.js';

/** A stay's progress notes (issue 17): signed as written, read newest first with their addenda. */
export class ProgressNoteService {
  constructor(private readonly app: FastifyInstance) {}

  async notes(ctx: ServiceContext, id: string, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const stay = await findStay(this.app.db, hospital.id, id, ctx.lang);
    if (!stay) throw notFound();
    const result = await stayNotes(this.app.db, id, pageSize, (page - 1) * pageSize);
    await this.app.audit.record(ctx, {
      action: 'hospitalization.notes',
      resourceType: 'hospitalization',
      resourceId: id,
      patientId: stay.patient.id,
      details: { page, results: result.rows.length },
    });
    return result;
  }

  /** A note is signed as written; once the stay is over, only addenda to existing notes are accepted. */
  async addNote(
    ctx: ServiceContext,
    id: string,
    body: { text: string; addendum_of?: string | null | undefined },
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    return this.app.db.transaction(async (tx) => {
      const stay = await lockStay(tx, hospital.id, id);
      if (!stay) throw notFound();
      if (body.addendum_of) {
        const parent = await findStayNote(tx, id, body.addendum_of);
        if (!parent || parent.addendumOf)
          throw badRequest({ addendum_of: ['hospitalizations.note_unknown'] });
      } else if (!stayIsOpen(stay.status)) throw conflict('hospitalizations.closed_notes');
      const noteId = await insertNote(tx, {
        hospitalId: hospital.id,
        hospitalizationId: id,
        addendumOf: body.addendum_of ?? null,
        authorId: me,
        text: body.text,
      });
      await this.app.audit.record(
        ctx,
        {
          action: body.addendum_of ? 'hospitalization.note_addendum' : 'hospitalization.note',
          resourceType: 'hospitalization',
          resourceId: id,
          patientId: stay.patient_id,
          details: { note: noteId },
        },
        tx,
      );
      return { ...(await findNote(tx, noteId)), addenda: [] };
    });
  }
}
