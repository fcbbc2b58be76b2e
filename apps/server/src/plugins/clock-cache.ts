import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { listenForChanges, NoticeCache } from '../lib/notice-cache.js';
import type { HospitalClock } from '../modules/care/care.context.js';

declare module 'fastify' {
  interface FastifyInstance {
    clockCache: NoticeCache<HospitalClock>;
  }
}

/** The PostgreSQL channel the triggers of migration 0030 notify: a hospital's id, or `*` for every hospital. */
export const CLOCK_CHANGED_CHANNEL = 'greensen_clock_changed';

/**
 * Each hospital's time zone and nursing shift times, as this instance last read them, dropped by the change
 * notices of the hospital's zone and settings: every care read that places "now" in a shift (the nurse's tasks,
 * the care list) then needs no statement for it (docs/performance.md, nurse dashboard).
 */
export default fp(
  async (app: FastifyInstance) => {
    const cache = new NoticeCache<HospitalClock>(app.config.clockCache, {
      maxEntries: 1_000,
      maxAgeMs: 60_000,
    });
    app.decorate('clockCache', cache);
    await listenForChanges(app, CLOCK_CHANGED_CHANNEL, cache, app.config.clockCache, 'clock cache');
  },
  { name: 'clock-cache', dependencies: ['db'] },
);
