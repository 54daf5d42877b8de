import type { FastifyRequest } from 'fastify';
import { readBody, type BodyEncoding } from './read-body.js';

/**
 * A request body the HTTP layer left unread, for a route that must authenticate its caller
 * first: a bulk upload is read only once the guards let it in, so that an unauthorised client
 * costs no memory. What is never read is discarded by Node as the connection goes on.
 */
export class UnreadBody {
  constructor(
    private readonly request: FastifyRequest,
    private readonly payload: NodeJS.ReadableStream,
    /** How the body is encoded (bodyEncodingOf, checked before): gzip is inflated as read. */
    private readonly encoding: BodyEncoding = 'identity',
  ) {}

  /**
   * The whole body, with the route's size limit (on the body inflated, for gzip); empty when
   * the client sent none.
   */
  read(): Promise<Buffer> {
    return new Promise((resolve, reject) =>
      readBody(
        this.request,
        this.payload,
        (error, body) => (error || !body ? reject(error ?? new Error('no body')) : resolve(body)),
        this.encoding,
      ),
    );
  }
}
