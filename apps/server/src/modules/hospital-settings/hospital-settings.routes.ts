import { ZHospitalSettings, ZHospitalSettingsUpdate } from '@greensen/shared/contracts/hospital-settings';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { HospitalSettingsService } from './hospital-settings.service.js';

defineMessages({
  'settings.minutes_range': {
    fr: 'Une durée entière de 5 à 120 minutes.',
    en: 'A whole number of minutes from 5 to 120.',
  },
  'settings.upload_range': {
    fr: 'Une taille entière de 1 à 50 Mo.',
    en: 'A whole number of MB from 1 to 50.',
  },
  'settings.expiring_range': {
    fr: 'Un nombre entier de jours de 7 à 365.',
    en: 'A whole number of days from 7 to 365.',
  },
  'settings.time_invalid': {
    fr: 'Heure attendue au format HH:MM (par exemple « 08:30 »).',
    en: 'A time as HH:MM is expected (for example "08:30").',
  },
  'settings.shift_times_count': {
    fr: 'De 2 à 4 heures de relève.',
    en: 'From 2 to 4 shift change times.',
  },
  'settings.shift_times_order': {
    fr: 'Les heures de relève doivent se suivre dans la journée.',
    en: 'The shift change times must follow each other within the day.',
  },
  'settings.hours_order': {
    fr: "L'heure de fermeture doit être après l'heure d'ouverture.",
    en: 'The closing time must be after the opening time.',
  },
});

/**
 * Hospital-wide settings (decision 0021). Like the staff and the maintenance switch they belong to no module:
 * every installation needs them, production included. Members of the hospital read them; its administrators
 * change them.
 */
export async function hospitalSettingsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new HospitalSettingsService(app);
  const tags = ['hospital-settings'];

  r.get(
    '/api/hospital/settings/',
    {
      config: { access: { scope: 'hospital', module: null, roles: 'any' } },
      schema: {
        tags,
        summary: "The hospital's settings: consultation duration, working hours, notification sound default",
        response: { 200: ZHospitalSettings },
      },
    },
    async (request) => service.get(contextOf(request)),
  );

  r.patch(
    '/api/hospital/settings/',
    {
      config: { access: { scope: 'hospital', module: null, roles: ['admin'] } },
      schema: {
        tags,
        summary: "Changes some of the hospital's settings (its administrators)",
        body: ZHospitalSettingsUpdate,
        response: { 200: ZHospitalSettings },
      },
    },
    async (request) => service.update(contextOf(request), request.body),
  );
}
