import type { Worker } from 'node:worker_threads';

/** A worker's answer to a request: its result, or its error's message and code. */
export type WorkerAnswer = { result?: unknown } | { error: { message: string; code?: string } };

/**
 * The answers a worker owes, in the order of its requests: each answer message settles the
 * oldest one waiting (an error rejects it with the worker's message and code). The worker's
 * error or exit rejects every one waiting and every later one. `other` takes the messages that
 * are no answer (it says so by returning true); `onFailure` is told of a failure.
 */
export class OrderedAnswers {
  private readonly waiting: { resolve(value: unknown): void; reject(error: Error): void }[] = [];
  private failed: Error | null = null;

  constructor(
    worker: Worker,
    name: string,
    other: (message: unknown) => boolean = () => false,
    private readonly onFailure: () => void = () => undefined,
  ) {
    worker.on('message', (message: WorkerAnswer) => {
      if (other(message)) return;
      const next = this.waiting.shift();
      if ('error' in message)
        next?.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else next?.resolve(message.result);
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the ${name} stopped with code ${code}`)));
  }

  /** The failure that stopped the worker, if any. */
  get failure(): Error | null {
    return this.failed;
  }

  /** The answer to the next request still unanswered, once it comes. */
  next(): Promise<unknown> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private fail(error: Error): void {
    this.failed ??= error;
    for (const waiting of this.waiting.splice(0)) waiting.reject(this.failed);
    this.onFailure();
  }
}
