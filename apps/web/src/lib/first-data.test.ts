import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import {
  holdShellRequests,
  holdShellRequestsFor,
  releaseAfterFirstData,
  releaseShellRequests,
  shellRequestsReleased,
  whenShellRequestsReleased,
} from './first-data';

afterEach(() => releaseShellRequests());

/** A query whose answer the test gives. */
function pendingQuery(client: QueryClient) {
  let answer: (value: string) => void = () => {};
  void client.prefetchQuery({
    queryKey: ['page', 'list'],
    queryFn: () =>
      new Promise<string>((resolve) => {
        answer = resolve;
      }),
  });
  return (value: string) => answer(value);
}

describe('the shell’s secondary requests and the page’s first data (issue 38)', () => {
  it('go at once when nothing holds them (signed in through the form, tests)', async () => {
    expect(shellRequestsReleased()).toBe(true);
    await expect(whenShellRequestsReleased()).resolves.toBeUndefined();
  });

  it('held at start-up, go once no query is in flight after the shell is mounted', async () => {
    const client = new QueryClient();
    holdShellRequests(600_000);
    const answer = pendingQuery(client);
    let went = false;
    const waiting = whenShellRequestsReleased().then(() => {
      went = true;
    });
    const stop = releaseAfterFirstData(client);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(went).toBe(false);
    expect(shellRequestsReleased()).toBe(false);
    answer('rows');
    await waiting;
    expect(shellRequestsReleased()).toBe(true);
    stop();
  });

  it('held at start-up, wait for the page’s chunks started by path even once its data is in', async () => {
    const client = new QueryClient();
    holdShellRequests(600_000);
    let chunkIn: (value: unknown) => void = () => {};
    holdShellRequestsFor(
      new Promise((resolve) => {
        chunkIn = resolve;
      }),
    );
    const answer = pendingQuery(client);
    const stop = releaseAfterFirstData(client);
    answer('rows');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.isFetching()).toBe(0);
    expect(shellRequestsReleased()).toBe(false);
    chunkIn('module');
    await whenShellRequestsReleased();
    expect(shellRequestsReleased()).toBe(true);
    stop();
  });

  it('a chunk that fails to load holds nothing', async () => {
    const client = new QueryClient();
    holdShellRequests(600_000);
    holdShellRequestsFor(Promise.reject(new Error('offline')));
    const stop = releaseAfterFirstData(client);
    await whenShellRequestsReleased();
    expect(shellRequestsReleased()).toBe(true);
    stop();
  });

  it('go when the page never settles, once the longest wait is over', async () => {
    const client = new QueryClient();
    holdShellRequests(20);
    pendingQuery(client);
    const stop = releaseAfterFirstData(client);
    await whenShellRequestsReleased();
    expect(shellRequestsReleased()).toBe(true);
    stop();
  });
});
