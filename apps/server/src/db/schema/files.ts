import { customType, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './common.js';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Stored files in the database (decision 0057): issued PDFs, patient documents, chat attachments, dictation
 * audio, by the key the server made. With PostgreSQL this is the default store (`FILE_STORE=database`): every
 * instance reads the same rows and the database's backup holds them. `sha256` is checked at every read.
 */
export const storedFiles = pgTable('stored_files', {
  key: text('key').primaryKey(),
  bytes: bytea('bytes').notNull(),
  size: integer('size').notNull(),
  /** Hex SHA-256 of `bytes`, computed when the file was stored. */
  sha256: text('sha256').notNull(),
  createdAt: createdAt(),
});
