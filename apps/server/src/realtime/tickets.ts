import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A WebSocket ticket is valid this long, and once. */
export const WS_TICKET_TTL_S = 30;

/** What a ticket stands for: the user and the session and token version it was issued under. */
export interface TicketClaims {
  userId: string;
  tokenVersion: number;
  sessionId: string | null;
}

/**
 * Short-lived single-use tickets for opening the notification socket, so long-lived tokens never sit in
 * URLs (and in proxy logs). With Redis any instance can redeem a ticket issued by another.
 */
export interface TicketStore {
  issue(claims: TicketClaims): Promise<string>;
  /** The claims of a valid ticket, consuming it; null when unknown, expired or already used. */
  redeem(ticket: string): Promise<TicketClaims | null>;
  close(): void;
}

/** 128 random bits, URL-safe. Only the SHA-256 of a ticket is stored. */
const newTicket = () => randomBytes(16).toString('base64url');
const digest = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');
export const TICKET_RE = /^[A-Za-z0-9_-]{22}$/;

function parseClaims(raw: string | null): TicketClaims | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<TicketClaims>;
    if (typeof v.userId !== 'string' || typeof v.tokenVersion !== 'number') return null;
    return { userId: v.userId, tokenVersion: v.tokenVersion, sessionId: v.sessionId ?? null };
  } catch {
    return null;
  }
}

export function createMemoryTicketStore(now: () => number = Date.now): TicketStore {
  const tickets = new Map<string, { claims: TicketClaims; expiresAt: number }>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [k, v] of tickets) if (v.expiresAt <= t) tickets.delete(k);
  }, WS_TICKET_TTL_S * 1000);
  sweep.unref();
  return {
    async issue(claims) {
      const ticket = newTicket();
      tickets.set(digest(ticket), { claims, expiresAt: now() + WS_TICKET_TTL_S * 1000 });
      return ticket;
    },
    async redeem(ticket) {
      if (!TICKET_RE.test(ticket)) return null;
      const key = digest(ticket);
      const entry = tickets.get(key);
      tickets.delete(key);
      if (!entry || entry.expiresAt <= now()) return null;
      return entry.claims;
    },
    close() {
      clearInterval(sweep);
      tickets.clear();
    },
  };
}

/** Tickets in Redis under `<prefix>ws-ticket:<sha256>`, with a TTL, redeemed atomically with GETDEL. */
export function createRedisTicketStore(redis: Redis, prefix: string): TicketStore {
  const keyOf = (ticket: string) => `${prefix}ws-ticket:${digest(ticket)}`;
  return {
    async issue(claims) {
      const ticket = newTicket();
      await redis.set(keyOf(ticket), JSON.stringify(claims), 'EX', WS_TICKET_TTL_S);
      return ticket;
    },
    async redeem(ticket) {
      if (!TICKET_RE.test(ticket)) return null;
      return parseClaims(await redis.getdel(keyOf(ticket)));
    },
    close() {},
  };
}
