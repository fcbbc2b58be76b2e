import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LIB = join(dirname(fileURLToPath(import.meta.url)), '../../../scripts/lib.mjs');

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// `npm start` (scripts/start.mjs) runs the server as its child through superviseChild.
describe('npm start stands for its server', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s on and exits only when the server has stopped, with its code',
    async (signal) => {
      // The "server": takes a while to stop after the signal, and says which one it got.
      const server = `process.on('${signal}', () => setTimeout(() => { console.log('stopped ${signal}'); process.exit(7); }, 400));
      console.log('child ' + process.pid); setInterval(() => {}, 1000);`;
      const parent = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { spawn } from 'node:child_process';
         const { superviseChild } = await import(${JSON.stringify(LIB)});
         superviseChild(spawn(process.execPath, ['-e', ${JSON.stringify(server)}], { stdio: 'inherit' }));`,
        ],
        // Its own process group: the signal reaches the parent only, as a supervisor's does.
        { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
      );
      let out = '';
      const childPid = await new Promise<number>((resolve) => {
        parent.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /child (\d+)/.exec(out);
          if (m) resolve(Number(m[1]));
        });
      });
      parent.kill(signal);
      const code = await new Promise<number | null>((r) => parent.on('exit', (c) => r(c)));
      expect(code).toBe(7);
      expect(out).toContain(`stopped ${signal}`);
      expect(alive(childPid)).toBe(false);
    },
  );
});
