import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const hashes = new Map<string, string>();

/**
 * The hash of a data file shipped with the product (a catalogue, a reference) and of the version of the code that
 * loads it, computed once per process: what every start compares with the hash stored at the last load, without
 * parsing the file (issue 38: the parse was most of the check's time on a start that loads nothing).
 */
export function shippedFileHash(path: string, loaderVersion: string): string {
  const key = `${loaderVersion}\n${path}`;
  let hash = hashes.get(key);
  if (!hash) {
    hash = createHash('sha256').update(`v${loaderVersion}\n`).update(readFileSync(path)).digest('hex');
    hashes.set(key, hash);
  }
  return hash;
}
