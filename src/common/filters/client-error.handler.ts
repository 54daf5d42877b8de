import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { HSTS } from '../security-headers.js';

/** The exchange a connection is in, as far as it reached Fastify. */
interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  id: string;
}

/** Where a refused request is logged: Fastify's logger, or any with the same call. */
export interface ClientErrorLog {
  info(fields: Record<string, unknown>, message: string): void;
}

export interface ClientErrorOptions {
  /** Headers every JSON answer carries (the security headers). */
  headers: Record<string, string>;
  headersTimeoutSeconds: number;
  requestTimeoutSeconds: number;
}

// The answers given to requests still being received, for whoever is reading their body.
const earlyAnswers = new WeakMap<IncomingMessage, { status: number; message: string }>();

/**
 * The answer ClientErrorHandler gave `request` while its body was still coming in (a request
 * timeout), if it did: the body's reader then fails with it rather than with the cut
 * connection, so that the request is recorded as it was answered.
 */
export function earlyAnswerOf(
  request: IncomingMessage,
): { status: number; message: string } | undefined {
  return earlyAnswers.get(request);
}

/** What llhttp says of a malformed request: a short fixed sentence, safe to repeat. */
function parseReason(error: Error & { reason?: unknown }): string {
  const reason = typeof error.reason === 'string' ? error.reason : '';
  return /^[\w .,'-]{1,100}$/.test(reason) ? `: ${reason.replace(/\.$/, '')}` : '';
}

/**
 * Answers what Node's HTTP parser refuses before any route sees it (a malformed request line or
 * header, headers over the size limit, a request not received in time) in the shape of every
 * other error: `{"error": "..."}`, the JSON content type and the security headers, then closes
 * the connection. Installed as Fastify's `clientErrorHandler` (Node's 'clientError' event), which
 * has only the socket, so the answer is written on it by hand.
 */
export class ClientErrorHandler {
  private readonly exchanges = new WeakMap<Socket, Exchange>();

  constructor(private readonly options: ClientErrorOptions) {}

  /** Called for every request Fastify sees, so that a later timeout knows what is in flight. */
  track(request: IncomingMessage, response: ServerResponse, id: string): void {
    // Only a request with a body can still be coming in when its answer starts or it times out;
    // skipping the others keeps this off the path of every GET.
    const { headers } = request;
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
      return;
    }
    this.exchanges.set(request.socket, { request, response, id });
  }

  handle(error: Error & { code?: string }, socket: Socket, log: ClientErrorLog): void {
    // Nothing can reach a reset connection, and one already answered is closing; with a
    // 'clientError' listener, Node leaves closing it to the listener.
    if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    const exchange = this.exchanges.get(socket);
    // An answer is already on its way for a request still being received (an early 413, say):
    // a second one would corrupt it, so the connection just ends.
    if (exchange && !exchange.request.complete && exchange.response.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = this.describe(error);
    const receiving = exchange && !exchange.request.complete;
    if (receiving) earlyAnswers.set(exchange.request, { status, message });
    const id = receiving ? exchange.id : randomUUID();
    log.info({ requestId: id, status, code: error.code, ip: socket.remoteAddress }, 'client error');
    socket.end(this.answer(status, message, id, socket));
    socket.destroySoon();
  }

  private describe(error: Error & { code?: string }): { status: number; message: string } {
    const { headersTimeoutSeconds, requestTimeoutSeconds } = this.options;
    switch (error.code) {
      case 'HPE_HEADER_OVERFLOW':
        return {
          status: 431,
          message: `Request headers are larger than the limit of ${maxHeaderSize} bytes`,
        };
      case 'ERR_HTTP_REQUEST_TIMEOUT':
        return {
          status: 408,
          message:
            `Request not received in time: the headers are due within ${headersTimeoutSeconds} s, ` +
            `the whole request within ${requestTimeoutSeconds} s`,
        };
      default:
        return { status: 400, message: `Malformed HTTP request${parseReason(error)}` };
    }
  }

  private answer(status: number, message: string, id: string, socket: Socket): string {
    const body = JSON.stringify({ error: message });
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      ...this.options.headers,
      'x-request-id': id,
      ...('encrypted' in socket && { 'strict-transport-security': HSTS }),
      'content-length': String(Buffer.byteLength(body)),
      date: new Date().toUTCString(),
      connection: 'close',
    };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`;
  }
}
