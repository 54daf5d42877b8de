import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message as the receiver got it. */
export interface ReceivedMessage {
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed. */
  message: { id: string; type: string; timestamp: string; data: Record<string, any> };
}

/**
 * A webhook receiver on the loopback: it keeps every message, answers each with the status
 * `answer` gives (200 by default), and tells when a condition on what it got holds.
 */
export class WebhookReceiver {
  readonly received: ReceivedMessage[] = [];
  /** The status of the answer to the nth message (0-based) to this path. */
  answer: (message: ReceivedMessage, index: number) => number = () => 200;
  private waiters: { check: () => boolean; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const made: { receiver?: WebhookReceiver } = {};
    const server = createServer((request, response) => {
      const receiver = made.receiver!;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const received: ReceivedMessage = {
          headers: request.headers,
          body,
          message: JSON.parse(body) as ReceivedMessage['message'],
        };
        const index = receiver.received.length;
        receiver.received.push(received);
        response.statusCode = receiver.answer(received, index);
        response.end('ok');
        receiver.settle();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    made.receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}/hook`);
    return made.receiver;
  }

  /** Messages of these types, in the order they came. */
  ofType(...types: string[]): ReceivedMessage[] {
    return this.received.filter((received) => types.includes(received.message.type));
  }

  /** Resolves once `check` holds (checked at each message); the test's timeout bounds it. */
  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ check, resolve }));
  }

  /** Resolves once `count` messages of `type` came. */
  untilCount(type: string, count: number): Promise<void> {
    return this.until(() => this.ofType(type).length >= count);
  }

  private settle(): void {
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.check()) return true;
      waiter.resolve();
      return false;
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Resolves once `check` answers true, asking again after each turn of `wait`. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
): Promise<T> {
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
