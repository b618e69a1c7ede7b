/** Releases a lock obtained from {@link Mutex.acquire}; calling it twice is harmless. */
export type Release = () => void;

/**
 * A FIFO async mutex. `acquire` resolves when every earlier holder has released. `idle` is true when nobody holds
 * the lock and nobody waits for it, which lets short synchronous operations skip the queue.
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private holdersAndWaiters = 0;

  get idle(): boolean {
    return this.holdersAndWaiters === 0;
  }

  acquire(): Promise<Release> {
    this.holdersAndWaiters += 1;
    let unlock: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => done);
    let released = false;
    const release: Release = () => {
      if (released) return;
      released = true;
      this.holdersAndWaiters -= 1;
      unlock();
    };
    return previous.then(() => release);
  }
}
