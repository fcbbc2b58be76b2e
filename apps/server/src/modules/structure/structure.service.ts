import type {
  TBedUpdate,
  TDepartmentCreate,
  TDepartmentUpdate,
  THospital,
  THospitalCreate,
  THospitalLogo,
  THospitalUpdate,
  TRoomCreate,
  TWardCreate,
  TWardDetail,
  TWardUpdate,
} from '@greensen/shared/contracts/structure';
import { LOGO_MAX_BYTES } from '@greensen/shared/contracts/structure';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import type { beds, departments, hospitals, rooms, wards } from '../../db/schema/index.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors.js';
import { decodeBase64, decodesFully, imageTypeOf } from '../../lib/images.js';
import {
  activeWardsOf,
  bedLabelsOfRoom,
  deleteLogo,
  departmentOf,
  findDepartment,
  findHospital,
  findLogo,
  findWard,
  insertAdministrator,
  insertBeds,
  insertDepartment,
  insertHospital,
  insertRoom,
  insertWard,
  isMember,
  listWards,
  lockBed,
  lockRoom,
  lockWard,
  nextBedOrder,
  otherAdministeredHospitals,
  roomsOfWard,
  updateBedColumns,
  updateDepartmentColumns,
  updateHospitalColumns,
  updateRoomColumns,
  updateWardColumns,
  upsertLogo,
} from './structure.repository.js';

/** A code already used in the hospital, a name already used in the ward: a 400 on that field, not a 500. */
async function uniqueOr400<T>(field: string, key: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest({ [field]: [key] });
    throw error;
  }
}

/**
 * The hospital's structure (issue 15): departments, wards, rooms and beds. Administrators change it; every
 * member reads it (the bed board of the inpatient module). Nothing is deleted: a ward, room or bed that later
 * modules may refer to is deactivated. A bed with a patient is never put out of service nor deactivated, nor
 * its room or ward (the rows are locked, and the database's `beds_occupied_active_ck` holds it too).
 */
export class StructureService {
  constructor(private readonly app: FastifyInstance) {}

  private audit(ctx: ServiceContext, tx: Tx, action: string, resourceType: string, id: string, details = {}) {
    return this.app.audit.record(ctx, { action, resourceType, resourceId: id, details }, tx);
  }

  // Hospitals -----------------------------------------------------------------------------------------

  /** The hospital the request works in (another hospital's id is not found, like an unknown one). */
  async hospital(ctx: ServiceContext, id: string): Promise<THospital> {
    if (id !== scopedHospital(ctx).id) throw notFound();
    const found = await findHospital(this.app.db, id);
    if (!found) throw notFound();
    return found;
  }

  /** A new hospital; the administrator who creates it administers it (its first member). */
  async createHospital(ctx: ServiceContext, body: THospitalCreate) {
    const user = actingUser(ctx);
    return this.app.db.transaction(async (tx) => {
      const id = await uniqueOr400('code', 'structure.code_taken', () => insertHospital(tx, body));
      await insertAdministrator(tx, user.id, id);
      await this.audit(ctx, tx, 'hospital.create', 'hospital', id, { code: body.code.toUpperCase() });
      return (await findHospital(tx, id))!;
    });
  }

  /**
   * The hospital's details (its code never changes: record and invoice numbers carry it). Deactivating it
   * needs another active hospital the administrator works in, so that nobody shuts themselves out.
   */
  async updateHospital(ctx: ServiceContext, id: string, body: THospitalUpdate) {
    if (id !== scopedHospital(ctx).id) throw notFound();
    const user = actingUser(ctx);
    return this.app.db.transaction(async (tx) => {
      if (body.is_active === false && (await otherAdministeredHospitals(tx, user.id, id)) === 0)
        throw conflict('structure.hospital_last');
      const values: Partial<typeof hospitals.$inferInsert> = { updatedAt: new Date() };
      if (body.name !== undefined) values.name = body.name;
      if (body.time_zone !== undefined) values.timeZone = body.time_zone;
      if (body.currency !== undefined) values.currency = body.currency.toUpperCase();
      if (body.triage_scale !== undefined) values.triageScale = body.triage_scale;
      if (body.address !== undefined) values.address = body.address;
      if (body.phones !== undefined) values.phones = body.phones;
      if (body.languages !== undefined) values.languages = body.languages;
      if (body.print_header !== undefined) values.printHeader = body.print_header;
      if (body.print_footer !== undefined) values.printFooter = body.print_footer;
      if (body.is_active !== undefined) values.isActive = body.is_active;
      await updateHospitalColumns(tx, id, values);
      await this.audit(ctx, tx, 'hospital.update', 'hospital', id, { fields: Object.keys(body) });
      return (await findHospital(tx, id))!;
    });
  }

  // The logo ----------------------------------------------------------------------------------------------

  /** The hospital's logo (404 when none), for every member (headers, printed documents). */
  async logo(ctx: ServiceContext, id: string): Promise<THospitalLogo> {
    if (id !== scopedHospital(ctx).id) throw notFound();
    const row = await findLogo(this.app.db, id);
    if (!row) throw notFound();
    return {
      content_type: row.contentType as THospitalLogo['content_type'],
      data: row.data,
      size: row.size,
      updated_at: row.updatedAt.toISOString(),
    };
  }

  /** A new logo: a PNG, JPEG or WebP image recognised by its content, at most `LOGO_MAX_BYTES`. */
  async setLogo(ctx: ServiceContext, id: string, data: string): Promise<THospitalLogo> {
    if (id !== scopedHospital(ctx).id) throw notFound();
    const bytes = decodeBase64(data);
    if (!bytes) throw badRequest({ data: ['structure.logo_unreadable'] });
    if (bytes.length > LOGO_MAX_BYTES) throw badRequest({ data: ['structure.logo_too_large'] });
    const type = imageTypeOf(bytes);
    if (!type) throw badRequest({ data: ['structure.logo_type'] });
    if (!(await decodesFully(bytes))) throw badRequest({ data: ['structure.logo_unreadable'] });
    const values = {
      contentType: type,
      data,
      size: bytes.length,
      updatedAt: new Date(),
      updatedBy: actingUser(ctx).id,
    };
    await this.app.db.transaction(async (tx) => {
      await upsertLogo(tx, id, values);
      await this.audit(ctx, tx, 'hospital.logo', 'hospital', id, { type, size: bytes.length });
    });
    return this.logo(ctx, id);
  }

  async removeLogo(ctx: ServiceContext, id: string) {
    if (id !== scopedHospital(ctx).id) throw notFound();
    await this.app.db.transaction(async (tx) => {
      await deleteLogo(tx, id);
      await this.audit(ctx, tx, 'hospital.logo_removed', 'hospital', id);
    });
  }

  // Departments ---------------------------------------------------------------------------------------

  private async checkHead(tx: Tx, hospitalId: string, head: string | null | undefined) {
    if (head && !(await isMember(tx, hospitalId, head)))
      throw badRequest({ head: ['structure.head_not_member'] });
  }

  async createDepartment(ctx: ServiceContext, body: TDepartmentCreate) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      await this.checkHead(tx, hospital.id, body.head);
      const id = await uniqueOr400('code', 'structure.code_taken', () =>
        insertDepartment(tx, hospital.id, body),
      );
      await this.audit(ctx, tx, 'department.create', 'department', id, { code: body.code });
      return (await findDepartment(tx, hospital.id, id))!;
    });
  }

  async updateDepartment(ctx: ServiceContext, id: string, body: TDepartmentUpdate) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const current = await departmentOf(tx, hospital.id, id);
      if (!current) throw notFound();
      await this.checkHead(tx, hospital.id, body.head);
      if (body.is_active === false && current.is_active && (await activeWardsOf(tx, id)) > 0)
        throw conflict('structure.department_has_wards');
      const values: Partial<typeof departments.$inferInsert> = { updatedAt: new Date() };
      if (body.name !== undefined) values.name = body.name;
      if (body.code !== undefined) values.code = body.code.toUpperCase();
      if (body.kind !== undefined) values.kind = body.kind;
      if (body.head !== undefined) values.headUserId = body.head;
      if (body.is_active !== undefined) values.isActive = body.is_active;
      await uniqueOr400('code', 'structure.code_taken', () =>
        updateDepartmentColumns(tx, hospital.id, id, values),
      );
      await this.audit(ctx, tx, 'department.update', 'department', id, { fields: Object.keys(body) });
      return (await findDepartment(tx, hospital.id, id))!;
    });
  }

  // Wards -----------------------------------------------------------------------------------------------

  list(
    ctx: ServiceContext,
    filters: { department?: string | undefined; includeInactive?: boolean | undefined },
    page: number,
    pageSize: number,
  ) {
    return listWards(this.app.db, scopedHospital(ctx).id, filters, pageSize, (page - 1) * pageSize);
  }

  ward(ctx: ServiceContext, id: string): Promise<TWardDetail> {
    return this.detail(this.app.db, scopedHospital(ctx).id, id);
  }

  /** A ward with its rooms and beds (what every write answers, read in the write's transaction). */
  private async detail(q: Queryable, hospitalId: string, id: string): Promise<TWardDetail> {
    const ward = await findWard(q, hospitalId, id);
    if (!ward) throw notFound();
    return { ...ward, room_list: await roomsOfWard(q, hospitalId, id) };
  }

  async createWard(ctx: ServiceContext, body: TWardCreate) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const department = await departmentOf(tx, hospital.id, body.department);
      if (!department) throw badRequest({ department: ['structure.department_unknown'] });
      if (!department.is_active) throw badRequest({ department: ['structure.department_inactive'] });
      const id = await uniqueOr400('code', 'structure.code_taken', () => insertWard(tx, hospital.id, body));
      await this.audit(ctx, tx, 'ward.create', 'ward', id, { code: body.code });
      return this.detail(tx, hospital.id, id);
    });
  }

  async updateWard(ctx: ServiceContext, id: string, body: TWardUpdate) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const ward = await lockWard(tx, hospital.id, id);
      if (!ward) throw notFound();
      if (body.is_active === false && ward.occupied > 0) throw conflict('structure.ward_occupied');
      if (body.department !== undefined) {
        const department = await departmentOf(tx, hospital.id, body.department);
        if (!department) throw badRequest({ department: ['structure.department_unknown'] });
      }
      const current = await findWard(tx, hospital.id, id);
      const minAge = body.min_age !== undefined ? body.min_age : current?.min_age;
      const maxAge = body.max_age !== undefined ? body.max_age : current?.max_age;
      if (minAge != null && maxAge != null && minAge > maxAge)
        throw badRequest({ max_age: ['structure.ages_order'] });
      const values: Partial<typeof wards.$inferInsert> = { updatedAt: new Date() };
      if (body.department !== undefined) values.departmentId = body.department;
      if (body.name !== undefined) values.name = body.name;
      if (body.code !== undefined) values.code = body.code.toUpperCase();
      if (body.category !== undefined) values.category = body.category;
      if (body.sex_restriction !== undefined) values.sexRestriction = body.sex_restriction;
      if (body.min_age !== undefined) values.minAge = body.min_age;
      if (body.max_age !== undefined) values.maxAge = body.max_age;
      if (body.is_active !== undefined) values.isActive = body.is_active;
      await uniqueOr400('code', 'structure.code_taken', () => updateWardColumns(tx, hospital.id, id, values));
      await this.audit(ctx, tx, 'ward.update', 'ward', id, { fields: Object.keys(body) });
      return this.detail(tx, hospital.id, id);
    });
  }

  // Rooms and beds --------------------------------------------------------------------------------------

  /** A room with its beds at once ("room 12, beds A–D"). */
  async createRoom(ctx: ServiceContext, wardId: string, body: TRoomCreate) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const ward = await lockWard(tx, hospital.id, wardId);
      if (!ward) throw notFound();
      const roomId = await uniqueOr400('name', 'structure.room_taken', () =>
        insertRoom(tx, hospital.id, wardId, body.name),
      );
      await insertBeds(tx, hospital.id, roomId, body.beds, 1);
      await this.audit(ctx, tx, 'room.create', 'room', roomId, { ward: wardId, beds: body.beds.length });
      return this.detail(tx, hospital.id, wardId);
    });
  }

  async updateRoom(
    ctx: ServiceContext,
    id: string,
    body: { name?: string | undefined; is_active?: boolean | undefined },
  ) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const room = await lockRoom(tx, hospital.id, id);
      if (!room) throw notFound();
      if (body.is_active === false && room.occupied > 0) throw conflict('structure.room_occupied');
      const values: Partial<typeof rooms.$inferInsert> = { updatedAt: new Date() };
      if (body.name !== undefined) values.name = body.name;
      if (body.is_active !== undefined) values.isActive = body.is_active;
      await uniqueOr400('name', 'structure.room_taken', () => updateRoomColumns(tx, hospital.id, id, values));
      await this.audit(ctx, tx, 'room.update', 'room', id, { fields: Object.keys(body) });
      return this.detail(tx, hospital.id, room.ward_id);
    });
  }

  async addBeds(ctx: ServiceContext, roomId: string, labels: string[]) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const room = await lockRoom(tx, hospital.id, roomId);
      if (!room) throw notFound();
      const taken = new Set((await bedLabelsOfRoom(tx, roomId)).map((l) => l.toUpperCase()));
      const clash = labels.filter((l) => taken.has(l.toUpperCase()));
      if (clash.length > 0) throw badRequest({ labels: ['structure.bed_taken'] });
      const first = await nextBedOrder(tx, roomId);
      await insertBeds(tx, hospital.id, roomId, labels, first);
      await this.audit(ctx, tx, 'bed.create', 'room', roomId, { beds: labels.length });
      return this.detail(tx, hospital.id, room.ward_id);
    });
  }

  /**
   * A bed's label, status (free, cleaning, out of service with a reason) or active flag. A bed with a patient
   * (occupied: set by inpatient stays, never here) keeps its status and stays active: 409.
   */
  async updateBed(ctx: ServiceContext, id: string, body: TBedUpdate) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const bed = await lockBed(tx, hospital.id, id);
      if (!bed) throw notFound();
      if (bed.status === 'occupied' && (body.status !== undefined || body.is_active === false))
        throw conflict('structure.bed_occupied');
      const values: Partial<typeof beds.$inferInsert> = { updatedAt: new Date() };
      if (body.label !== undefined) {
        const taken = (await bedLabelsOfRoom(tx, bed.room_id)).filter(
          (l) => l.toUpperCase() === body.label?.toUpperCase(),
        );
        if (taken.length > 0) throw badRequest({ label: ['structure.bed_taken'] });
        values.label = body.label;
      }
      if (body.status !== undefined) {
        values.status = body.status;
        values.statusReason = body.status === 'out_of_service' ? (body.status_reason ?? null) : null;
      }
      if (body.is_active !== undefined) values.isActive = body.is_active;
      await updateBedColumns(tx, hospital.id, id, values);
      await this.audit(ctx, tx, 'bed.update', 'bed', id, {
        fields: Object.keys(body),
        ...(body.status ? { status: body.status } : {}),
      });
      return this.detail(tx, hospital.id, bed.ward_id);
    });
  }
}
