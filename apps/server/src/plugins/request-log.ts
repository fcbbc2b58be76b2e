import { randomUUID } from 'node:crypto';
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';

/**
 * One log line per request, when it is answered, with its method and URL (Fastify writes two: one on arrival
 * without the status, one at the end without the URL); the arrival only at debug level.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** Paths whose segments carry secrets (tokens in links and socket URLs): never logged in clear. */
const SECRET_PATHS = [
  /^(\/ws\/notifications\/)[^/?]+/,
  /^(\/api\/verify-email\/[^/]+\/)[^/?]+/,
  /^(\/api\/auth\/reset-password\/)[^/?]+/,
  /^(\/api\/setup\/)[^/?]+/,
];

export function redactUrl(url: string): string {
  let out = url.replace(/([?&](?:token|ticket|access|refresh)=)[^&]+/gi, '$1[redacted]');
  for (const re of SECRET_PATHS) out = out.replace(re, '$1[redacted]');
  return out;
}

/**
 * The Fastify options of the request log: the logger (pino: level, redaction, the request serializer), the
 * request ids (an incoming `X-Request-Id` of a proxy kept when well formed) and the one-line `RequestLog`.
 * `stream` absent: standard output, as `npm start` writes. Shared with the bench's reference hello-world
 * (bench/hello-server.mjs), which must write the very same line.
 */
export function requestLogOptions(
  logLevel: string,
  stream?: NodeJS.WritableStream,
): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader' | 'logController'> {
  return {
    logger:
      logLevel === 'silent'
        ? false
        : {
            level: logLevel,
            ...(stream ? { stream } : {}),
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["set-cookie"]'],
            serializers: {
              req: (req: { method: string; url: string; id: string; ip?: string }) => ({
                method: req.method,
                url: redactUrl(req.url),
                id: req.id,
                ip: req.ip,
              }),
            },
          },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    logController: new RequestLog(),
  };
}

/** Every answer says its request id (`X-Request-Id`), the key to its log line. */
export function addRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
}
