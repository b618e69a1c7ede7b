import { describe, expect, it } from 'vitest';
import { Mutex } from './mutex.js';

describe('Mutex', () => {
  it('grants the lock in request order, one holder at a time', async () => {
    const mutex = new Mutex();
    expect(mutex.idle).toBe(true);
    const order: string[] = [];
    const hold = async (name: string, ms: number): Promise<void> => {
      const release = await mutex.acquire();
      order.push(`${name}+`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      order.push(`${name}-`);
      release();
    };
    const all = Promise.all([hold('a', 10), hold('b', 1), hold('c', 5)]);
    expect(mutex.idle).toBe(false);
    await all;
    expect(order).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
    expect(mutex.idle).toBe(true);
  });

  it('ignores a second release', async () => {
    const mutex = new Mutex();
    const release = await mutex.acquire();
    const next = mutex.acquire();
    release();
    release();
    const releaseNext = await next;
    expect(mutex.idle).toBe(false);
    releaseNext();
    expect(mutex.idle).toBe(true);
  });
});
