import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './webhook-targets.js';

/** What an attempt got: the answer's status, or why there was none. */
export type SendResult = { status: number; error: null } | { status: null; error: string };

/** A message as it is sent: its body and its signed headers. */
export interface OutgoingMessage {
  body: string;
  headers: Record<string, string>;
}

/** A lookup that answers the address already checked, whatever the host (no second query). */
function pinned(target: CheckedTarget): LookupFunction {
  const { address, family } = target.address;
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/**
 * Posts messages: to the checked address (never resolving again), within `timeoutMs` for the
 * whole answer, without following redirects (a 3xx is an answer that is not a success).
 * Connections are kept alive, at most `concurrency` per host.
 */
export class WebhookSender {
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;

  constructor(
    concurrency: number,
    private readonly timeoutMs: number,
    private readonly userAgent: string,
  ) {
    this.http = new HttpAgent({ keepAlive: true, maxSockets: concurrency });
    this.https = new HttpsAgent({ keepAlive: true, maxSockets: concurrency });
  }

  send(target: CheckedTarget, message: OutgoingMessage): Promise<SendResult> {
    const { url } = target;
    const secure = url.protocol === 'https:';
    const body = Buffer.from(message.body);
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const request = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          agent: secure ? this.https : this.http,
          lookup: pinned(target),
          headers: {
            ...message.headers,
            'content-type': 'application/json',
            'content-length': String(body.length),
            'user-agent': this.userAgent,
          },
        },
        (response: IncomingMessage) => {
          // The answer's body is not kept: read to its end so that the connection is reused.
          response.on('data', () => undefined);
          response.on('end', () => finish({ status: response.statusCode ?? 0, error: null }));
          response.on('error', (error) => finish({ status: null, error: error.message }));
        },
      );
      const timer = setTimeout(() => {
        finish({ status: null, error: `no answer within ${this.timeoutMs} ms` });
        request.destroy();
      }, this.timeoutMs);
      request.on('error', (error) => finish({ status: null, error: error.message }));
      request.end(body);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
