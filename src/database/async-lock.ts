/** A first-come, first-served mutex for async work within one process. */
export class AsyncLock {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  /** Runs `work` once every earlier holder has finished. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise((resolve) => (release = resolve));
    this.pending += 1;
    try {
      await previous;
      return await work();
    } finally {
      this.pending -= 1;
      release();
    }
  }

  /** Whether somebody holds or awaits the lock. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves once nobody holds or awaits the lock. */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.tail;
  }
}
