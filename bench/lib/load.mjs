// Load generation with autocannon, on loopback only, always bounded in count and in time.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { percentile } from './stats.mjs';

function assertLoopback(url) {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    throw new Error(`the bench only loads loopback addresses (got ${host})`);
  }
}

function run(options, maxSeconds) {
  assertLoopback(options.url);
  return new Promise((resolve, reject) => {
    const latencies = [];
    const statuses = new Map();
    const instance = autocannon({ ...options, timeout: 30 }, (err, result) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve({ result, latencies, statuses });
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    });
    // The time bound: a run stops after maxSeconds even when its request count is not reached.
    const timer = setTimeout(() => instance.stop(), maxSeconds * 1000);
  });
}

function failures(statuses) {
  let n = 0;
  for (const [status, count] of statuses) if (status < 200 || status >= 300) n += count;
  return n;
}

/**
 * Latency of a list of requests sent one after the other on one connection (no queueing in the figures):
 * p50 and p95 of every response, at most `amount` requests and `maxSeconds` seconds.
 */
export async function latency(url, requests, { headers, amount, maxSeconds = 30, connections = 1 }) {
  const { result, latencies, statuses } = await run(
    { url, headers, requests, connections, amount, pipelining: 1 },
    maxSeconds,
  );
  return {
    n: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    failed: failures(statuses) + result.errors,
  };
}

/**
 * Kinds of request measured side by side for a ratio: one request of each kind in turn on one connection (a, b,
 * c, a, b, c, …), `amount` of each, so that every kind meets the same moments of the machine's load and gives the
 * same number of samples (batches one after the other let the load move between them, and a p95 of 30 samples
 * against one of 120 compared a near-maximum with a percentile). `kinds`: `{ name: [request, …] }`, each request
 * with its own headers; each kind cycles through its list. Answers `{ name: { n, p50, p95, failed } }`.
 */
export async function interleavedLatency(url, kinds, { amount, maxSeconds = 60 }) {
  const names = Object.keys(kinds);
  const requests = [];
  const longest = Math.max(...names.map((k) => kinds[k].length));
  for (let i = 0; i < longest; i += 1) for (const k of names) requests.push(kinds[k][i % kinds[k].length]);
  const { result, latencies, statuses } = await run(
    { url, requests, connections: 1, amount: names.length * amount, pipelining: 1 },
    maxSeconds,
  );
  // One connection, one request at a time: the answers come in the order of the requests.
  const failed = failures(statuses) + result.errors;
  return Object.fromEntries(
    names.map((k, j) => {
      const list = latencies.filter((_, i) => i % names.length === j);
      return [k, { n: list.length, p50: percentile(list, 50), p95: percentile(list, 95), failed }];
    }),
  );
}

/** Throughput (requests per second, the mean over the run) with `connections` concurrent connections. */
export async function throughput(url, requests, { headers, connections = 10, seconds = 5, amount }) {
  const { result, statuses, latencies } = await run(
    {
      url,
      headers,
      requests,
      connections,
      pipelining: 1,
      duration: seconds,
      // A count bound as well: far above what the time allows on this kind of machine.
      maxOverallRequests: amount ?? seconds * 50_000,
    },
    seconds + 10,
  );
  return {
    rps: latencies.length / Math.max(result.duration, 0.001),
    n: latencies.length,
    p95: percentile(latencies, 95),
    failed: failures(statuses) + result.errors,
  };
}

/** CPU time (user + system, every thread) a process has used so far, in ms (Linux `/proc`; null elsewhere). */
export function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * The server's CPU time per request of `amount` requests one after the other (issue 38): what a request costs
 * whatever the machine's load, where req/s on a shared machine measure the other users as much as the server.
 */
export async function cpuPerRequest(url, pid, { path, headers, amount }) {
  const before = processCpuMs(pid);
  if (before === null) return null;
  await latency(url, [{ path }], { headers, amount });
  return (processCpuMs(pid) - before) / amount;
}
