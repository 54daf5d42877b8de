import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { createGunzip, type Gunzip } from 'node:zlib';
import { earlyAnswerOf } from '../filters/client-error.handler.js';

/** The Content-Encodings a bulk body may come in. */
export type BodyEncoding = 'identity' | 'gzip';

/**
 * The request's Content-Encoding (none is `identity`); any other one is a 415, answered
 * before the body is read.
 */
export function bodyEncodingOf(headers: IncomingHttpHeaders): BodyEncoding {
  const encoding = headers['content-encoding']?.trim().toLowerCase() ?? 'identity';
  if (encoding === 'identity' || encoding === '' || encoding === 'gzip' || encoding === 'x-gzip') {
    return encoding === 'gzip' || encoding === 'x-gzip' ? 'gzip' : 'identity';
  }
  throw new UnsupportedMediaTypeException(
    `Content-Encoding must be gzip or identity, got ${headers['content-encoding']}`,
  );
}

/**
 * Inflates a gzip body as it comes, its inflated size held to `limit` (the limit is on what the
 * body becomes): past it the inflation stops at once, so that a small body inflating to
 * gigabytes (a gzip bomb) costs no more than the limit. `fail` is called once, with a 413 or,
 * for bytes that are no gzip, a 400.
 */
class GunzipSink {
  // 64 KiB pieces rather than zlib's default 16 KiB: fewer events on the main thread.
  private readonly gunzip: Gunzip = createGunzip({ chunkSize: 64 * 1024 });
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private finished: ((body: Buffer) => void) | null = null;
  private stopped = false;

  constructor(
    private readonly limit: number,
    private readonly fail: (error: Error) => void,
  ) {
    this.gunzip.on('data', (chunk: Buffer) => {
      this.size += chunk.length;
      if (this.size > this.limit) return this.stop(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      this.chunks.push(chunk);
    });
    this.gunzip.on('error', (error: Error) =>
      this.stop(new BadRequestException(`the gzip body is corrupt: ${error.message}`)),
    );
    this.gunzip.on('end', () => {
      const body = Buffer.concat(this.chunks, this.size);
      this.chunks.length = 0;
      this.finished?.(body);
    });
  }

  write(bytes: Buffer): void {
    if (!this.gunzip.destroyed) this.gunzip.write(bytes);
  }

  /** The compressed body is all in: `done` gets the inflated one (unless `fail` is called). */
  end(done: (body: Buffer) => void): void {
    this.finished = done;
    if (!this.gunzip.destroyed) this.gunzip.end();
  }

  /** Lets go of the inflation and what it made. */
  abort(): void {
    this.gunzip.destroy();
    this.chunks.length = 0;
  }

  private stop(error: Error): void {
    // Once: an error destroys the stream before it is emitted.
    if (this.stopped) return;
    this.stopped = true;
    this.abort();
    this.fail(error);
  }
}

/**
 * A request body read with the checks Fastify's own body reading makes (`parseAs`): the route's
 * bodyLimit, before reading from Content-Length and while reading, and a body as long as
 * Content-Length says. Read by hand because Fastify joins the chunks once the body is in,
 * which for a bulk body holds up other requests; here each chunk is copied into place as it
 * arrives. The buffer is the body's own (no shared pool), so that it can be handed to a worker
 * thread without a copy.
 */
export function readBody(
  request: FastifyRequest,
  payload: NodeJS.ReadableStream,
  done: (error: Error | null, body?: Buffer) => void,
  encoding: BodyEncoding = 'identity',
): void {
  const limit = request.routeOptions.bodyLimit ?? Infinity;
  const contentLength = Number(request.headers['content-length']);
  if (contentLength > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());

  const known = Number.isInteger(contentLength) && contentLength >= 0;
  // Without a length (chunked), chunks are kept and joined at the end, as Fastify does.
  const whole = known && encoding === 'identity' ? Buffer.allocUnsafeSlow(contentLength) : null;
  const chunks: Buffer[] = [];
  let received = 0;
  const stop = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  };
  // Answered before the body is all in (the rest is dropped: lingerAfterEarlyAnswer).
  const failEarly = (error: Error) => {
    stop();
    sink?.abort();
    done(error);
  };
  const sink = encoding === 'gzip' ? new GunzipSink(limit, failEarly) : null;
  function onData(chunk: Buffer | string) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (received + bytes.length > limit)
      return failEarly(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    if (sink) sink.write(bytes);
    else if (whole && received + bytes.length <= whole.length) bytes.copy(whole, received);
    else chunks.push(bytes);
    received += bytes.length;
  }
  function onEnd(error?: Error & { statusCode?: number }) {
    stop();
    if (error) sink?.abort();
    if (error) {
      // Cut by the answer to a timeout: the reader fails as the client was answered.
      const answered = earlyAnswerOf(request.raw);
      if (answered) {
        return done(Object.assign(new Error(answered.message), { statusCode: answered.status }));
      }
      // An aborted or broken upload is the client's doing.
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400))
        error.statusCode = 400;
      return done(error);
    }
    if (known && received !== contentLength) {
      sink?.abort();
      return done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    }
    if (sink) return sink.end((body) => done(null, body));
    if (whole) return done(null, whole);
    done(null, Buffer.concat(chunks, received));
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}

/** Dropped bytes cost no memory, and a client that sent this much has had time to read. */
const MIN_DISCARDED_BYTES = 16 * 1024 * 1024;

/**
 * For an answer sent before the request's body is all in (a 413, say). Closing the connection
 * right after it, as Fastify asks when a body fails to parse, would reset it while the client
 * is still sending, and many clients then report the reset instead of the answer. Instead the
 * rest of the body is read and dropped, and the connection kept (Node's parser still finds where
 * the body ends); past twice the route's body limit, or 16 MiB if more, it is cut. Node's
 * request timeout bounds the time this may take.
 */
export function lingerAfterEarlyAnswer(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  const hasBody =
    raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length']) > 0;
  if (!hasBody || raw.complete) return;
  // A client that asked to close gets what it asked for.
  if (reply.getHeader('connection') === 'close' && !/close/i.test(raw.headers.connection ?? '')) {
    reply.header('connection', 'keep-alive');
  }
  const maxBytes = Math.max(2 * (request.routeOptions.bodyLimit ?? 0), MIN_DISCARDED_BYTES);
  let discarded = 0;
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxBytes) raw.socket.destroy();
  });
  raw.resume();
}
