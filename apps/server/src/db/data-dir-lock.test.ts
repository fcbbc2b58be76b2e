import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLocked, LOCK_FILE, lockDataDir } from './data-dir-lock.js';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '../../dist');
const scratch = mkdtempSync(join(tmpdir(), 'greensen-lock-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** The pid of a process that has exited (no process has it now, short of reuse). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(r.stdout.trim());
}

describe('the data directory lock', () => {
  it('names its holder to a second taker and is released', () => {
    const dir = mkdtempSync(join(scratch, 'a-'));
    const release = lockDataDir(dir);
    const owner = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, host: hostname() });
    expect(() => lockDataDir(dir)).toThrow(DataDirLocked);
    expect(() => lockDataDir(dir)).toThrow(`process ${process.pid} on ${hostname()}`);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockDataDir(dir)();
  });

  it("takes over the lock of a process that no longer runs on this host, not another host's", () => {
    const dir = mkdtempSync(join(scratch, 'b-'));
    const stale = {
      pid: deadPid(),
      host: hostname(),
      started_at: '2026-01-01T00:00:00Z',
      command: 'main.js',
    };
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(stale));
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    release();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ ...stale, host: 'another-host' }));
    expect(() => lockDataDir(dir)).toThrow('on another-host');
  });

  it('a second server or command on the same DATA_DIR refuses, naming the first; a killed one is taken over', async () => {
    const dataDir = mkdtempSync(join(scratch, 'c-'));
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEMO: 'off',
      PORT: '0',
      LOG_LEVEL: 'error',
    };
    // The first process: opens the embedded database of DATA_DIR and keeps it.
    const first = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { openDatabase } = await import(${JSON.stringify(join(DIST, 'db/client.js'))});
         await openDatabase({ dataDir: process.env.DATA_DIR });
         console.log('open');
         setInterval(() => {}, 1000);`,
      ],
      { env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(first);
    await new Promise<void>((resolve, reject) => {
      first.stdout!.on('data', (d: Buffer) => d.toString().includes('open') && resolve());
      first.on('exit', (code) => reject(new Error(`the first process exited (${code})`)));
    });

    const server = spawnSync(process.execPath, [join(DIST, 'main.js')], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(server.status).toBe(1);
    expect(server.stderr).toContain(`is in use by process ${first.pid} on ${hostname()}`);
    const cli = spawnSync(process.execPath, [join(DIST, 'cli.js'), 'migrate'], { env, encoding: 'utf8' });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain(`is in use by process ${first.pid}`);

    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const after = spawnSync(process.execPath, [join(DIST, 'cli.js'), 'migrate'], {
      env,
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(after.status, after.stderr).toBe(0);
    expect(after.stdout).toContain('Migrations applied (embedded database)');
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  }, 240_000);
});
