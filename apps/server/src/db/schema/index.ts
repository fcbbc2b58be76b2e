// The Drizzle schema, one file per area. Migrations are generated from these files (npm run db:generate).
export * from './appointments.js';
export * from './audit.js';
export * from './auth.js';
export * from './billing.js';
export * from './care.js';
export * from './chat.js';
export * from './clinical.js';
export * from './documents.js';
export * from './inpatient.js';
export * from './jobs.js';
export * from './notes.js';
export * from './notifications.js';
export * from './people.js';
export * from './pharmacy.js';
export * from './records.js';
export * from './stats.js';
export * from './structure.js';
