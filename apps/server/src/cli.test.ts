import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The built command line (the server suite runs after `tsc -b`, which writes dist/).
const CLI = join(dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const scratch = mkdtempSync(join(tmpdir(), 'greensen-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('cli.js --help', () => {
  it('prints the usage without opening, creating or migrating any database', () => {
    const dataDir = join(scratch, 'never-created');
    // A database URL nothing answers: a connection attempt would fail the command.
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const help = spawnSync(process.execPath, [CLI, '--help'], { env, encoding: 'utf8' });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('migrate-files');
    expect(help.stdout).toContain('backup <archive>');
    expect(help.stdout).toContain('release-jobs');
    const unknown = spawnSync(process.execPath, [CLI, 'no-such-command'], { env, encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown command: no-such-command');
    const none = spawnSync(process.execPath, [CLI], {
      env: { ...env, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    expect(none.status).toBe(2);
    expect(existsSync(dataDir)).toBe(false);
  });
});
