import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type TSocketAction, WS_CLOSE_INVALID_TOKEN } from '@greensen/shared/contracts/notifications';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { WebSocket } from 'ws';
import { type AuthUser, loadAuthUserInSession } from '../modules/users/users.repository.js';
import { authenticateToken } from '../plugins/access.js';
import { decodeSend, encodeSend, type SerialisedDelivery } from './bus-message.js';
import { createMemoryBus, createRedisBus, type EventBus } from './event-bus.js';
import {
  createMemoryTicketStore,
  createRedisTicketStore,
  type TicketClaims,
  type TicketStore,
  WS_TICKET_TTL_S,
} from './tickets.js';

/** Actions of the socket envelope (specification §7). */
export type RealtimeAction = TSocketAction;

/**
 * What a socket receives: `{action, message}` (specification §7), plus the hospital the event belongs to so
 * the client can ignore events of hospitals other than the one it shows.
 */
export interface Envelope {
  action: RealtimeAction;
  hospital: string | null;
  message: unknown;
}

/** Close codes of the notification socket. */
export const WS_CLOSE = {
  invalidToken: WS_CLOSE_INVALID_TOKEN,
  unavailable: 1013,
  goingAway: 1001,
} as const;

export const HEARTBEAT_MS = 30_000;
export const RECHECK_MS = 60_000;
/** Memberships are looked up again for an event of a hospital not known for the user at most this often. */
const MEMBERSHIP_LOOKUP_MS = 5000;
/** An upgrade request that has not become a socket this long after arriving was answered over HTTP: closed. */
const UPGRADE_ANSWER_MS = 2000;
/** A user keeps at most this many sockets per instance; the oldest is closed beyond it. */
export const MAX_SOCKETS_PER_USER = 20;

/** The single bus channel of the gateway (the bus prefixes it with `config.redisPrefix`). */
const CHANNEL = 'realtime';

/** One envelope for one user. */
export interface Delivery {
  userId: string;
  envelope: Envelope;
}

/**
 * A bus message, as text: `<origin instance>\n<type>\n<body>`.
 * - `send`: the envelopes of one event, each distinct one once and a line per delivery (`bus-message.ts`); the
 *   notifications of one event are one message whatever the number of recipients;
 * - `disconnect`: `<userId>\t<sessionId or empty>`.
 * A receiver rebuilds the JSON of the deliveries it has sockets for and writes it to them as it came: no parse of
 * the whole message, no serialisation again per user; the sender recognises its own messages by their first
 * characters.
 */
type BusType = 'send' | 'disconnect';

interface Client {
  ws: WebSocket;
  userId: string;
  sessionId: string | null;
  tokenVersion: number;
  /** Hospitals the user was a member of at the last check: events of other hospitals are not delivered. */
  hospitals: Set<string>;
  alive: boolean;
}

export interface Realtime {
  readonly instanceId: string;
  readonly bus: EventBus;
  /** Issues a single-use ticket (valid WS_TICKET_TTL_S seconds) for opening the socket. */
  issueTicket(claims: TicketClaims): Promise<string>;
  /**
   * Sends an envelope to every socket of the user on every instance. Events of a hospital reach only sockets
   * of users who are (still) members of it. Never rejects.
   */
  sendToUser(userId: string, envelope: Envelope): Promise<void>;
  /**
   * `sendToUser` for several users at once (the notifications of one event): published to the other instances
   * as one bus message, then delivered here in one pass. Never rejects.
   */
  sendToUsers(deliveries: readonly Delivery[]): Promise<void>;
  /**
   * Closes the user's sockets on every instance with 4401 (account disabled, signed out, token revoked…);
   * with `sessionId`, only the sockets opened under that session.
   */
  disconnectUser(userId: string, opts?: { sessionId?: string | null }): Promise<void>;
  /** Number of open sockets of the user on this instance. */
  socketCount(userId: string): number;
  /** One heartbeat round: terminates sockets that missed the previous ping, pings the others. */
  heartbeat(): void;
  /** Re-checks every connected user; closes sockets of users who are not valid any more. */
  recheck(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/** Sends a text frame; `data` is the UTF-8 JSON, encoded once for every socket it goes to. */
const send = (ws: WebSocket, data: Buffer) => {
  if (ws.readyState === ws.OPEN) ws.send(data, { binary: false });
};

/**
 * The real-time gateway: the event bus, the socket registry of this instance and the
 * `/ws/notifications/{token}/` route. The token is an access token or a ticket from
 * `POST /api/notifications/ws-ticket/`.
 */
export default fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const instanceId = randomUUID();
    let bus: EventBus;
    let tickets: TicketStore;
    if (config.redisUrl) {
      const redisBus = await createRedisBus({
        url: config.redisUrl,
        prefix: config.redisPrefix,
        log: app.log,
      });
      bus = redisBus;
      // The shared client of the Redis plugin (it prefixes keys itself) when registered, else the bus's own.
      const shared = app.hasDecorator('redis') ? (app as { redis?: Redis | null }).redis : null;
      tickets = shared
        ? createRedisTicketStore(shared, '')
        : createRedisTicketStore(redisBus.commands, config.redisPrefix);
    } else {
      bus = createMemoryBus(app.log);
      tickets = createMemoryTicketStore();
    }

    const clients = new Map<string, Set<Client>>();
    /** When each user's memberships were last looked up because of an event of an unknown hospital. */
    const membershipLookups = new Map<string, number>();

    const closeClient = (client: Client, code: number, reason: string) => {
      try {
        client.ws.close(code, reason);
      } catch {
        client.ws.terminate();
      }
    };

    /** The user when still valid: active and, when the socket has a session, that session not revoked. */
    const refreshUser = async (userId: string, sessionId: string | null = null): Promise<AuthUser | null> => {
      const found = await loadAuthUserInSession(app.db, userId, sessionId);
      if (!found?.user.isActive) return null;
      if (sessionId !== null && !found.sessionActive) return null;
      return found.user;
    };

    const hospitalsOf = (user: AuthUser) => new Set(user.memberships.map((m) => m.hospitalId));

    /** Writes the serialised envelope to the user's sockets here that may see its hospital. */
    const write = (set: Set<Client>, hospital: string | null, json: string) => {
      // Encoded once, whatever the number of the user's sockets (tabs, devices).
      const data = Buffer.from(json);
      for (const c of set) if (!hospital || c.hospitals.has(hospital)) send(c.ws, data);
    };

    /**
     * Delivers to this instance's sockets of the user: at once (no promise) unless a socket does not know the
     * event's hospital and the user's memberships are due for a new look.
     */
    const deliverLocal = (
      userId: string,
      hospital: string | null,
      json: string,
    ): Promise<void> | undefined => {
      const set = clients.get(userId);
      if (!set?.size) return;
      const lastLook = membershipLookups.get(userId) ?? 0;
      if (
        hospital &&
        Date.now() - lastLook > MEMBERSHIP_LOOKUP_MS &&
        [...set].some((c) => !c.hospitals.has(hospital))
      ) {
        // Membership may have changed since the socket opened: look again (at most every few seconds)
        // before dropping the event.
        membershipLookups.set(userId, Date.now());
        return refreshUser(userId)
          .catch(() => null)
          .then((user) => {
            if (user) for (const c of set) c.hospitals = hospitalsOf(user);
            write(set, hospital, json);
          });
      }
      write(set, hospital, json);
    };

    /** Serves this instance's sockets in one pass; resolves once the deliveries waiting on a lookup are done. */
    const deliverAll = (deliveries: readonly SerialisedDelivery[]) => {
      const waiting: Promise<void>[] = [];
      for (const d of deliveries) {
        const pending = deliverLocal(d.userId, d.hospital, d.json);
        if (pending) waiting.push(pending);
      }
      return waiting.length ? Promise.all(waiting) : undefined;
    };

    const disconnectLocal = (userId: string, sessionId: string | null) => {
      for (const c of clients.get(userId) ?? []) {
        if (!sessionId || c.sessionId === sessionId) closeClient(c, WS_CLOSE.invalidToken, 'invalid token');
      }
    };

    /** The deliveries of a `send` body to the users with a socket here (the others cost a map lookup). */
    const receiveSend = (body: string) => {
      const waiting: Promise<void>[] = [];
      decodeSend(
        body,
        (userId) => clients.has(userId),
        (userId, hospital, json) => {
          const pending = deliverLocal(userId, hospital, json);
          if (pending) waiting.push(pending);
        },
      );
      return waiting.length ? Promise.all(waiting) : undefined;
    };

    /** Handles a message of another instance. */
    const receive = (raw: string) => {
      const first = raw.indexOf('\n');
      const second = first < 0 ? -1 : raw.indexOf('\n', first + 1);
      if (second < 0) return;
      const type = raw.slice(first + 1, second);
      if (type === 'send') return receiveSend(raw.slice(second + 1));
      if (type === 'disconnect') {
        const [userId, sessionId] = raw.slice(second + 1).split('\t');
        if (userId) disconnectLocal(userId, sessionId || null);
      }
    };

    const own = `${instanceId}\n`;
    const unsubscribe = await bus.subscribe(CHANNEL, (raw) => {
      // Events published by this instance were already handled locally when they were emitted.
      if (raw.startsWith(own)) return;
      try {
        void Promise.resolve(receive(raw)).catch((err) =>
          app.log.error({ err }, 'realtime event handling failed'),
        );
      } catch (err) {
        app.log.error({ err }, 'realtime event handling failed');
      }
    });

    /**
     * Publishes the event first, so that the other instances start on their sockets while this one serves its
     * own, then handles it here (local sockets work even when the bus is down). Never rejects.
     */
    const emit = async (type: BusType, body: string, here: () => unknown) => {
      const published = bus.publish(CHANNEL, `${own}${type}\n${body}`);
      try {
        await here();
      } catch (err) {
        app.log.error({ err }, 'realtime local delivery failed');
      }
      await published;
    };

    const sendAll = (deliveries: readonly Delivery[]) => {
      if (deliveries.length === 0) return Promise.resolve();
      const prepared = deliveries.map(
        (d): SerialisedDelivery => ({
          userId: d.userId,
          hospital: d.envelope.hospital,
          json: JSON.stringify(d.envelope),
        }),
      );
      return emit('send', encodeSend(prepared), () => deliverAll(prepared));
    };

    const register = (client: Client) => {
      let set = clients.get(client.userId);
      if (!set) {
        set = new Set();
        clients.set(client.userId, set);
      }
      set.add(client);
      if (set.size > MAX_SOCKETS_PER_USER) {
        const oldest = set.values().next().value;
        if (oldest) {
          set.delete(oldest);
          closeClient(oldest, WS_CLOSE.goingAway, 'too many connections');
        }
      }
    };

    const unregister = (client: Client) => {
      const set = clients.get(client.userId);
      if (!set) return;
      set.delete(client);
      if (set.size === 0) {
        clients.delete(client.userId);
        membershipLookups.delete(client.userId);
      }
    };

    const realtime: Realtime = {
      instanceId,
      bus,
      issueTicket: (claims) => tickets.issue(claims),
      sendToUser: async (userId, envelope) => sendAll([{ userId, envelope }]),
      sendToUsers: async (deliveries) => sendAll(deliveries),
      disconnectUser: (userId, opts = {}) => {
        const sessionId = opts.sessionId ?? null;
        return emit('disconnect', `${userId}\t${sessionId ?? ''}`, () => disconnectLocal(userId, sessionId));
      },
      socketCount: (userId) => clients.get(userId)?.size ?? 0,
      heartbeat() {
        for (const set of clients.values()) {
          for (const c of set) {
            if (!c.alive) {
              c.ws.terminate();
              continue;
            }
            c.alive = false;
            try {
              c.ws.ping();
            } catch {
              c.ws.terminate();
            }
          }
        }
      },
      async recheck() {
        for (const [userId, set] of [...clients]) {
          // One query per session of the user on this instance (usually one or two).
          const sessions = new Map<string | null, AuthUser | null>();
          try {
            for (const c of set) {
              if (!sessions.has(c.sessionId))
                sessions.set(c.sessionId, await refreshUser(userId, c.sessionId));
            }
          } catch (err) {
            // The database is away: keep the sockets, try again at the next round.
            app.log.warn({ err: { message: (err as Error).message } }, 'realtime recheck failed');
            return;
          }
          for (const c of set) {
            const user = sessions.get(c.sessionId);
            if (!user || user.tokenVersion !== c.tokenVersion) {
              closeClient(c, WS_CLOSE.invalidToken, 'invalid token');
            } else {
              c.hospitals = hospitalsOf(user);
            }
          }
        }
      },
    };
    app.decorate('realtime', realtime);

    /** The user behind a socket token (access token or ticket), or null. */
    const authenticate = async (token: string) => {
      if (token.includes('.')) {
        const auth = await authenticateToken(app, token);
        return auth ? { user: auth.user, sessionId: auth.sessionId } : null;
      }
      const claims = await tickets.redeem(token);
      if (!claims) return null;
      const user = await refreshUser(claims.userId, claims.sessionId);
      if (!user || user.tokenVersion !== claims.tokenVersion) return null;
      return { user, sessionId: claims.sessionId };
    };

    const handler = async (ws: WebSocket, token: string) => {
      // Messages from the client carry nothing the server needs; they are read and dropped.
      ws.on('message', () => {});
      let auth: Awaited<ReturnType<typeof authenticate>>;
      try {
        auth = await authenticate(token);
      } catch (err) {
        app.log.warn({ err: { message: (err as Error).message } }, 'socket authentication unavailable');
        closeClient({ ws } as Client, WS_CLOSE.unavailable, 'try again later');
        return;
      }
      if (!auth) {
        closeClient({ ws } as Client, WS_CLOSE.invalidToken, 'invalid token');
        return;
      }
      if (ws.readyState !== ws.OPEN) return;
      const client: Client = {
        ws,
        userId: auth.user.id,
        sessionId: auth.sessionId,
        tokenVersion: auth.user.tokenVersion,
        hospitals: hospitalsOf(auth.user),
        alive: true,
      };
      register(client);
      ws.on('pong', () => {
        client.alive = true;
      });
      ws.on('close', () => unregister(client));
      ws.on('error', () => unregister(client));
    };

    for (const url of ['/ws/notifications/:token/', '/ws/notifications/:token']) {
      app.get<{ Params: { token: string } }>(url, { websocket: true }, (ws, request) =>
        handler(ws, request.params.token),
      );
    }

    const heartbeatTimer = setInterval(() => realtime.heartbeat(), HEARTBEAT_MS);
    heartbeatTimer.unref();
    let rechecking = false;
    const recheckTimer = setInterval(() => {
      if (rechecking) return;
      rechecking = true;
      realtime.recheck().finally(() => {
        rechecking = false;
      });
    }, RECHECK_MS);
    recheckTimer.unref();

    // An upgrade request answered over HTTP instead of becoming a socket (401 on an /api path, 404, 414 of a
    // too long path…) keeps a connection the HTTP server no longer times out: without this, each one stays
    // open (half-closed) for ever, and a graceful shutdown waits on it. Close it once answered.
    const upgrading = new WeakSet<IncomingMessage>();
    const upgraded = new WeakSet<IncomingMessage>();
    app.websocketServer.on('connection', (_ws: WebSocket, req: IncomingMessage) => upgraded.add(req));
    const dropIfAnswered = (req: IncomingMessage) => {
      if (upgrading.has(req) && !upgraded.has(req) && !req.socket.destroyed) req.socket.destroy();
    };
    app.addHook('onResponse', async (request) => dropIfAnswered(request.raw));
    const onUpgrade = (req: IncomingMessage, socket: Duplex) => {
      upgrading.add(req);
      // Answers the router gives without running hooks (414, malformed URLs) are caught here.
      const timer = setTimeout(() => dropIfAnswered(req), UPGRADE_ANSWER_MS);
      timer.unref();
      socket.once('end', () => dropIfAnswered(req));
      socket.once('close', () => clearTimeout(timer));
    };
    app.server.on('upgrade', onUpgrade);

    app.addHook('preClose', async () => {
      app.server.off('upgrade', onUpgrade);
      clearInterval(heartbeatTimer);
      clearInterval(recheckTimer);
      for (const set of clients.values())
        for (const c of set) closeClient(c, WS_CLOSE.goingAway, 'server restart');
    });
    app.addHook('onClose', async () => {
      await unsubscribe().catch(() => {});
      await bus.close();
      tickets.close();
    });
  },
  { name: 'realtime', dependencies: ['db', 'access', '@fastify/websocket'] },
);

export { WS_TICKET_TTL_S };
