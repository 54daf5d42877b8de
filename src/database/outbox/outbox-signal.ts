import { Injectable } from '@nestjs/common';

/**
 * Tells this process's senders that a write committed events, so that they need not wait for
 * their next look at the outbox. Other processes' events are found by that look.
 */
@Injectable()
export class OutboxSignal {
  private readonly listeners = new Set<() => void>();

  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}
