import type {
  THospitalSettings,
  THospitalSettingsUpdate,
} from '@greensen/shared/contracts/hospital-settings';
import type { FastifyInstance } from 'fastify';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { findHospitalSettings, saveHospitalSettings } from './hospital-settings.repository.js';

/**
 * Hospital-wide settings (issue 15, decision 0021): every member reads them (the web app takes the notification
 * sound default from them), the hospital's administrators change them; a change is audited with what it set.
 */
export class HospitalSettingsService {
  constructor(private readonly app: FastifyInstance) {}

  get(ctx: ServiceContext): Promise<THospitalSettings> {
    return findHospitalSettings(this.app.db, scopedHospital(ctx).id);
  }

  async update(ctx: ServiceContext, body: THospitalSettingsUpdate): Promise<THospitalSettings> {
    const hospitalId = scopedHospital(ctx).id;
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      await saveHospitalSettings(tx, hospitalId, body, user.id);
      await this.app.audit.record(
        ctx,
        {
          action: 'hospital_settings.update',
          resourceType: 'hospital',
          resourceId: hospitalId,
          details: { changes: body },
        },
        tx,
      );
    });
    return findHospitalSettings(this.app.db, hospitalId);
  }
}
