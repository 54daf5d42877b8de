import type { Worker } from 'node:worker_threads';
import type { WorkerAnswer } from './ordered-answers.js';

/** Waits for a worker's next message; the protocols using it have at most one outstanding. */
export type Receive<T> = () => Promise<T>;

/**
 * The next-message function of `worker` (`name` says which in errors): a message resolves the
 * one waiting; the worker's error or exit rejects it and every later wait.
 */
export function receiver<T>(worker: Worker, name: string): Receive<T> {
  let waiting: { resolve(message: T): void; reject(error: Error): void } | null = null;
  let failure: Error | null = null;
  const fail = (error: Error) => {
    failure ??= error;
    waiting?.reject(failure);
    waiting = null;
  };
  worker.on('message', (message: T) => {
    waiting?.resolve(message);
    waiting = null;
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the ${name} stopped with code ${code}`)));
  return () =>
    failure
      ? Promise.reject(failure)
      : new Promise<T>((resolve, reject) => (waiting = { resolve, reject }));
}

/**
 * `bytes` ready to hand to a worker: a buffer of its own is transferred without a copy (it is
 * unusable here afterwards); one cut from a shared pool is copied.
 */
export function transferable(bytes: Uint8Array): Uint8Array {
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return owned ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
}

/** Stops `worker` once, whatever it is doing; resolves once it has exited. */
export function terminator(worker: Worker): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => {
    if (!closing) {
      worker.removeAllListeners();
      // Errors and exit are no longer of interest, but must not go unhandled.
      worker.on('error', () => undefined);
      closing = worker.terminate().then(() => undefined);
    }
    return closing;
  };
}

/** A worker's answer for a failure: the error's message and code, as a message can carry them. */
export function errorAnswer(error: unknown): Extract<WorkerAnswer, { error: unknown }> {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  return {
    error: { message: String(message), code: typeof code === 'string' ? code : undefined },
  };
}
