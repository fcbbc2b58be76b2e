// `npm run audit:deps`: the production dependencies against the registry's advisories (`npm audit --omit=dev`).
// Exit 0: no high or critical advisory. Exit 1: at least one (listed). Exit 2: the audit could not run (no
// network, or the registry refused the audit request) — said so plainly, never a silent pass; with
// `--allow-offline` (or AUDIT_DEPS_ALLOW_OFFLINE=1) that case prints "NOT CHECKED" and exits 0.
// It needs the network, so `npm test` does not run it; .ci/run does (docs/security.md).
// AUDIT_DEPS_REPORT=<file> reads a saved `npm audit --json` report instead of asking the registry.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ROOT } from './lib.mjs';

const FAILING = ['critical', 'high'];
const allowOffline = process.argv.includes('--allow-offline') || process.env.AUDIT_DEPS_ALLOW_OFFLINE === '1';

function runAudit() {
  if (process.env.AUDIT_DEPS_REPORT) return { stdout: readFileSync(process.env.AUDIT_DEPS_REPORT, 'utf8') };
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return spawnSync(npm, ['audit', '--omit=dev', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 180_000,
  });
}

const res = runAudit();
let report;
try {
  report = JSON.parse(res.stdout || 'null');
} catch {
  report = null;
}

const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const stderr = String(res.stderr ?? '')
    .split('\n')
    .filter((l) =>
      /npm (error|warn) (audit|code|network|request)|ENOTFOUND|ECONN|ETIMEDOUT|EAI_AGAIN/.test(l),
    )
    .join(' ');
  const reason =
    report?.error?.summary ||
    report?.message ||
    res.error?.message ||
    stderr ||
    `npm audit exited with ${res.status} and no report`;
  console.log(`audit:deps: could not check the production dependencies: ${reason.trim()}`);
  if (allowOffline) {
    console.log(
      'audit:deps: NOT CHECKED — the registry could not be reached (--allow-offline). Run it again online.',
    );
    process.exit(0);
  }
  console.log(
    'audit:deps: failing, because an unchecked audit must not look like a clean one (see --allow-offline).',
  );
  process.exit(2);
}

const total = counts.total ?? Object.values(counts).reduce((a, b) => a + b, 0);
const deps = report.metadata?.dependencies?.prod ?? report.metadata?.dependencies?.total;
console.log(
  `audit:deps: ${deps ?? '?'} production dependencies, ${total} advisories ` +
    `(critical ${counts.critical ?? 0}, high ${counts.high ?? 0}, moderate ${counts.moderate ?? 0}, ` +
    `low ${counts.low ?? 0}, info ${counts.info ?? 0})`,
);

const failing = Object.entries(report.vulnerabilities ?? {}).filter(([, v]) => FAILING.includes(v.severity));
for (const [name, v] of failing) {
  const titles = (v.via ?? [])
    .filter((via) => typeof via === 'object')
    .map((via) => `${via.title ?? 'advisory'}${via.url ? ` (${via.url})` : ''}`);
  const fix =
    v.fixAvailable === true
      ? 'fix: npm audit fix'
      : v.fixAvailable && typeof v.fixAvailable === 'object'
        ? `fix: ${v.fixAvailable.name}@${v.fixAvailable.version}${v.fixAvailable.isSemVerMajor ? ' (major)' : ''}`
        : 'no fix yet';
  console.log(
    `  ✗ ${v.severity} ${name} ${v.range ?? ''} — ${titles.join('; ') || `via ${v.via?.join(', ')}`} — ${fix}`,
  );
}
if ((counts.critical ?? 0) + (counts.high ?? 0) > 0) {
  console.log('audit:deps: FAILED — high or critical advisories in production dependencies.');
  process.exit(1);
}
console.log('audit:deps: OK — no high or critical advisory in production dependencies.');
