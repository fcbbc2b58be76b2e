import { ZIdParams } from '@greensen/shared/contracts/common';
import {
  ZBedsCreate,
  ZBedUpdate,
  ZDepartmentCreate,
  ZDepartmentDetail,
  ZDepartmentUpdate,
  ZHospital,
  ZHospitalCreate,
  ZHospitalLogo,
  ZHospitalLogoUpload,
  ZHospitalUpdate,
  ZRoomCreate,
  ZRoomUpdate,
  ZWardCreate,
  ZWardDetail,
  ZWardList,
  ZWardListQuery,
  ZWardUpdate,
} from '@greensen/shared/contracts/structure';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { StructureService } from './structure.service.js';

defineMessages({
  'structure.code_invalid': {
    fr: 'Code invalide : lettres, chiffres et tirets (par exemple « MED-A »).',
    en: 'Invalid code: letters, digits and dashes (for example "MED-A").',
  },
  'structure.code_taken': {
    fr: 'Ce code est déjà utilisé dans l’hôpital.',
    en: 'This code is already used in the hospital.',
  },
  'structure.ages_order': {
    fr: "L'âge maximal doit être supérieur ou égal à l'âge minimal.",
    en: 'The maximum age must be at least the minimum age.',
  },
  'structure.beds_distinct': {
    fr: 'Chaque lit doit avoir un libellé différent.',
    en: 'Each bed needs a different label.',
  },
  'structure.reason_required': {
    fr: 'Indiquez pourquoi le lit est hors service.',
    en: 'Say why the bed is out of service.',
  },
  'structure.department_unknown': {
    fr: "Ce service n'existe pas dans l'hôpital.",
    en: 'No such department in the hospital.',
  },
  'structure.department_inactive': { fr: 'Ce service est désactivé.', en: 'This department is deactivated.' },
  'structure.department_has_wards': {
    fr: 'Ce service a encore des unités actives : désactivez-les d’abord.',
    en: 'This department still has active wards: deactivate them first.',
  },
  'structure.head_not_member': {
    fr: "Le chef de service doit être un membre actif de l'hôpital.",
    en: 'The head of department must be an active member of the hospital.',
  },
  'structure.time_zone_invalid': {
    fr: 'Fuseau horaire inconnu : par exemple « Africa/Kinshasa ».',
    en: 'Unknown time zone: for example "Africa/Kinshasa".',
  },
  'structure.currency_invalid': {
    fr: 'Code de devise ISO 4217 attendu : trois lettres, par exemple « XOF ».',
    en: 'An ISO 4217 currency code is expected: three letters, for example "XOF".',
  },
  'structure.phone_invalid': { fr: 'Numéro de téléphone invalide.', en: 'Invalid phone number.' },
  'structure.languages_distinct': { fr: 'Chaque langue une seule fois.', en: 'Each language once.' },
  'structure.hospital_last': {
    fr: "C'est le seul hôpital actif que vous administrez : il ne peut pas être désactivé.",
    en: 'This is the only active hospital you administer: it cannot be deactivated.',
  },
  'structure.logo_unreadable': {
    fr: "Le fichier n'a pas pu être lu : choisissez une image PNG, JPEG ou WebP.",
    en: 'The file could not be read: choose a PNG, JPEG or WebP image.',
  },
  'structure.logo_too_large': {
    fr: 'Le logo ne doit pas dépasser 512 Ko.',
    en: 'The logo must not exceed 512 KB.',
  },
  'structure.logo_type': {
    fr: "Ce fichier n'est pas une image PNG, JPEG ou WebP (les SVG ne sont pas acceptés).",
    en: 'This file is not a PNG, JPEG or WebP image (SVG files are not accepted).',
  },
  'structure.room_taken': {
    fr: 'Cette chambre existe déjà dans l’unité.',
    en: 'This room already exists in the ward.',
  },
  'structure.bed_taken': {
    fr: 'Ce libellé de lit existe déjà dans la chambre.',
    en: 'This bed label already exists in the room.',
  },
  'structure.bed_occupied': {
    fr: 'Ce lit est occupé par un patient : il ne peut être ni mis hors service ni désactivé.',
    en: 'A patient occupies this bed: it can be neither put out of service nor deactivated.',
  },
  'structure.room_occupied': {
    fr: 'Un lit de cette chambre est occupé : elle ne peut pas être désactivée.',
    en: 'A bed of this room is occupied: it cannot be deactivated.',
  },
  'structure.ward_occupied': {
    fr: 'Un lit de cette unité est occupé : elle ne peut pas être désactivée.',
    en: 'A bed of this ward is occupied: it cannot be deactivated.',
  },
});

/**
 * The hospital's structure (issue 15): departments, wards, rooms and beds. Every member reads the wards (the
 * bed board); administrators change them. Writes are audited events; nothing is deleted.
 */
export async function structureRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new StructureService(app);
  const read = { access: { scope: 'hospital', module: 'hospitals', roles: 'any' } } as const;
  const admin = {
    access: { scope: 'hospital', module: 'hospitals', roles: ACTION_GROUPS['structure.manage'] },
  } as const;
  const tags = ['structure'];

  r.get(
    '/api/hospitals/:id/',
    {
      config: read,
      schema: {
        tags,
        summary:
          'The hospital the request works in: name, code, time zone, currency, scale, contact, print lines',
        params: ZIdParams,
        response: { 200: ZHospital },
      },
    },
    async (request) => service.hospital(contextOf(request), request.params.id),
  );

  r.get(
    '/api/hospitals/:id/logo/',
    {
      config: read,
      schema: {
        tags,
        summary: "The hospital's logo in base64 with its type (404 when none)",
        params: ZIdParams,
        response: { 200: ZHospitalLogo },
      },
    },
    async (request) => service.logo(contextOf(request), request.params.id),
  );

  r.put(
    '/api/hospitals/:id/logo/',
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Replaces the logo: a PNG, JPEG or WebP image in base64, recognised by its content, ≤ 512 KB',
        params: ZIdParams,
        body: ZHospitalLogoUpload,
        response: { 200: ZHospitalLogo },
      },
    },
    async (request) => service.setLogo(contextOf(request), request.params.id, request.body.data),
  );

  r.delete(
    '/api/hospitals/:id/logo/',
    {
      config: admin,
      schema: { tags, summary: 'Removes the logo', params: ZIdParams },
    },
    async (request, reply) => {
      await service.removeLogo(contextOf(request), request.params.id);
      reply.code(204);
    },
  );

  r.post(
    '/api/hospitals/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Creates a hospital; the administrator creating it becomes its first administrator',
        body: ZHospitalCreate,
        response: { 201: ZHospital },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createHospital(contextOf(request), request.body);
    },
  );

  r.patch(
    '/api/hospitals/:id/',
    {
      config: admin,
      schema: {
        tags,
        summary:
          "Changes the hospital's details (never its code); deactivating it needs another active hospital the administrator works in (409)",
        params: ZIdParams,
        body: ZHospitalUpdate,
        response: { 200: ZHospital },
      },
    },
    async (request) => service.updateHospital(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/departments/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Creates a department (name, code, kind, head of department)',
        body: ZDepartmentCreate,
        response: { 201: ZDepartmentDetail },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createDepartment(contextOf(request), request.body);
    },
  );

  r.patch(
    '/api/departments/:id/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Changes a department; deactivating one with active wards is a 409',
        params: ZIdParams,
        body: ZDepartmentUpdate,
        response: { 200: ZDepartmentDetail },
      },
    },
    async (request) => service.updateDepartment(contextOf(request), request.params.id, request.body),
  );

  r.get(
    '/api/wards/',
    {
      config: read,
      schema: {
        tags,
        summary:
          'Wards of the hospital with their department and bed counts by status (active ones by default)',
        querystring: ZWardListQuery,
        response: { 200: ZWardList },
      },
    },
    async (request) => {
      const q = request.query;
      const found = await service.list(
        contextOf(request),
        { department: q.department, includeInactive: q.include_inactive },
        q.page,
        q.page_size,
      );
      return pageOf(request, q, found.count, found.rows);
    },
  );

  r.get(
    '/api/wards/:id/',
    {
      config: read,
      schema: {
        tags,
        summary: 'A ward with its rooms and their beds',
        params: ZIdParams,
        response: { 200: ZWardDetail },
      },
    },
    async (request) => service.ward(contextOf(request), request.params.id),
  );

  r.post(
    '/api/wards/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Creates a ward in a department (tariff category, sex and age restrictions)',
        body: ZWardCreate,
        response: { 201: ZWardDetail },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createWard(contextOf(request), request.body);
    },
  );

  r.patch(
    '/api/wards/:id/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Changes a ward; deactivating one with an occupied bed is a 409',
        params: ZIdParams,
        body: ZWardUpdate,
        response: { 200: ZWardDetail },
      },
    },
    async (request) => service.updateWard(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/wards/:id/rooms/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Creates a room with its beds at once ("room 12, beds A–D"); answers the ward',
        params: ZIdParams,
        body: ZRoomCreate,
        response: { 201: ZWardDetail },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createRoom(contextOf(request), request.params.id, request.body);
    },
  );

  r.patch(
    '/api/rooms/:id/',
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Renames or (de)activates a room; deactivating one with an occupied bed is a 409; answers the ward',
        params: ZIdParams,
        body: ZRoomUpdate,
        response: { 200: ZWardDetail },
      },
    },
    async (request) => service.updateRoom(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/rooms/:id/beds/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Adds beds to a room; answers the ward',
        params: ZIdParams,
        body: ZBedsCreate,
        response: { 201: ZWardDetail },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.addBeds(contextOf(request), request.params.id, request.body.labels);
    },
  );

  r.patch(
    '/api/beds/:id/',
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Changes a bed: label, status (free, cleaning, out of service with a reason), active; an occupied bed keeps its status (409); answers the ward',
        params: ZIdParams,
        body: ZBedUpdate,
        response: { 200: ZWardDetail },
      },
    },
    async (request) => service.updateBed(contextOf(request), request.params.id, request.body),
  );
}
