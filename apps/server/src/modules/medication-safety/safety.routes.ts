import { ZSafetyCheckRequest, ZSafetyCheckResult } from '@greensen/shared/contracts/medication-safety';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { MedicationSafetyService } from './safety.service.js';

/**
 * Medication safety (issue 34, decision 0055): the live check of a draft line or prescription. Signing,
 * dispensing and recording a dose run the same service on the server (their routes answer 409
 * `medication_safety` with the alerts when a blocking one has no reason).
 */
export async function medicationSafetyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const safety = new MedicationSafetyService(app);
  // Whoever prescribes, dispenses or gives medicines.
  const roles = [
    ...new Set([
      ...ACTION_GROUPS['prescription.write'],
      ...ACTION_GROUPS['pharmacy.manage'],
      ...ACTION_GROUPS['care.write'],
    ]),
  ];
  r.post(
    '/api/medication-safety/check/',
    {
      config: { access: { scope: 'hospital', module: 'pharmacy', roles } },
      schema: {
        tags: ['pharmacy'],
        summary:
          'The safety alerts of a draft line or prescription: allergies (every source), doses, duplicates, interactions, pregnancy',
        body: ZSafetyCheckRequest,
        response: { 200: ZSafetyCheckResult },
      },
    },
    async (request) => safety.check(contextOf(request), request.body),
  );
}
