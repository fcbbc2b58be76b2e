// Load generation with autocannon, on loopback only, always bounded in count and in time.
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
