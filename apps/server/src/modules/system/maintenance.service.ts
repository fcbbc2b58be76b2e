import type { Db, Queryable } from '../../db/client.js';
import { readSetting, writeSetting } from './settings.repository.js';

const KEY = 'maintenance_mode';
/** Instances re-read the shared flag at most this often, so a switch reaches every instance within it. */
const CACHE_MS = 3000;

export class MaintenanceService {
  private cached: { value: boolean; at: number } | null = null;

  constructor(
    private readonly db: Db,
    /** MAINTENANCE_MODE from the environment: forces maintenance whatever the stored flag says. */
    private readonly forced: boolean,
  ) {}

  isForced() {
    return this.forced;
  }

  async isOn(): Promise<boolean> {
    if (this.forced) return true;
    const now = Date.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.value;
    const value = (await readSetting(this.db, KEY)) === 'true';
    this.cached = { value, at: now };
    return value;
  }

  async set(enabled: boolean, userId: string, db: Queryable = this.db) {
    await writeSetting(db, KEY, String(enabled), userId);
    this.cached = { value: enabled, at: Date.now() };
  }
}
