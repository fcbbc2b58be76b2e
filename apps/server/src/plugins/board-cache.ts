import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { listenForChanges, NoticeCache } from '../lib/notice-cache.js';
import type { PreSerialized } from '../lib/pre-serialized.js';

/** A kept board: the answer, and what its audit row says of it. */
export interface KeptBoard {
  answer: PreSerialized;
  wards: number;
  pending: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    boardCache: NoticeCache<KeptBoard>;
  }
}

/** The PostgreSQL channel the triggers of migration 0021 notify: a hospital's id, or `*` for every hospital. */
export const BOARD_CHANGED_CHANNEL = 'greensen_board_changed';

/**
 * The bed boards this instance has answered, ready to send (checked against their schema and written as JSON
 * once), per hospital and per filters, language and local day; dropped by the change notices of the tables the
 * board reads (docs/performance.md, bed board). A nurse's board is asked for by every screen of the ward every
 * minute and changes a few times an hour: most answers are then one audit row and a copy of kept bytes.
 */
export default fp(
  async (app: FastifyInstance) => {
    const cache = new NoticeCache<KeptBoard>(app.config.boardCache, {
      maxEntries: 2_000,
      maxAgeMs: 60_000,
    });
    app.decorate('boardCache', cache);
    await listenForChanges(app, BOARD_CHANGED_CHANNEL, cache, app.config.boardCache, 'board cache');
  },
  { name: 'board-cache', dependencies: ['db'] },
);
