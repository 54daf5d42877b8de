import { connect } from 'node:net';

/** An answer read off a raw socket: status, headers (names in lower case) and body text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The socket error seen, if any (ECONNRESET, EPIPE): what a client would have reported. */
  socketError: string | null;
}

/** The first answer in what a connection received, or null when none came whole. */
export function parseRawResponse(
  received: Buffer,
  /** An answer to HEAD has no body, whatever its Content-Length says. */
  head = false,
): Omit<RawResponse, 'socketError'> | null {
  const text = received.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = head ? 0 : Number(headers['content-length'] ?? 0);
  const body = received.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
  if (body.length < length) return null;
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: body.subarray(0, length).toString('utf8'),
  };
}

export interface RawOptions {
  /** Written after the first part, one piece per write (a body sent on its own, say). */
  then?: (string | Buffer)[];
  /** Half-close our side once everything is written (the server still answers). */
  end?: boolean;
}

/**
 * Writes bytes as they are (malformed on purpose) to the service and resolves once one whole
 * answer has arrived and everything was written (or the connection failed), or rejects if the
 * server closes without a whole answer.
 */
export function rawRequest(
  baseUrl: string,
  data: string | Buffer,
  options: RawOptions = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const head = data.toString().startsWith('HEAD ');
    let socketError: string | null = null;
    let settled = false;
    let written = false;
    const settle = () => {
      if (settled || (!written && !socket.destroyed)) return;
      const parsed = parseRawResponse(Buffer.concat(chunks), head);
      if (!parsed) {
        if (socket.destroyed) {
          settled = true;
          reject(
            new Error(
              `no answer (${socketError ?? 'closed'}): ${Buffer.concat(chunks).toString()}`,
            ),
          );
        }
        return;
      }
      settled = true;
      socket.destroy();
      resolve({ ...parsed, socketError });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      settle();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (socketError = error.code ?? 'error'));
    socket.on('close', settle);
    const pieces = [data, ...(options.then ?? [])];
    pieces.forEach((piece, index) =>
      socket.write(piece, (error) => {
        if (error) socketError ??= (error as NodeJS.ErrnoException).code ?? 'error';
        if (index < pieces.length - 1) return;
        written = true;
        if (options.end) socket.end();
        settle();
      }),
    );
  });
}

/** Resolves with what arrived once the server closes the connection (it never answered: ''). */
export function untilClosed(baseUrl: string, data?: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    if (data) socket.write(data);
  });
}
