import { describe, expect, it } from 'vitest';
import { parsePort } from './args.js';
import { accessNote, madeOnce, serveUntilStopped } from './serving.js';

describe('parsePort', () => {
  it('takes 0 (a free port) to 65535 and refuses anything else with the flag named', () => {
    expect(parsePort('0')).toBe(0);
    expect(parsePort('8766')).toBe(8766);
    expect(parsePort('65535')).toBe(65_535);
    for (const bad of ['', ' ', '-1', '65536', '80.5', 'http']) {
      expect(() => parsePort(bad)).toThrow(/--port must be a whole number from 0 to 65535/);
    }
  });
});

describe('madeOnce', () => {
  it('makes the value on the first call only, and tries again after a failure', async () => {
    let calls = 0;
    const get = madeOnce(async () => {
      calls += 1;
      if (calls === 1) throw new Error('no model yet');
      return `made ${calls}`;
    });
    await expect(get()).rejects.toThrow('no model yet');
    expect(await get()).toBe('made 2');
    expect(await get()).toBe('made 2');
    expect(calls).toBe(2);
  });
});

describe('serveUntilStopped', () => {
  it('serves until a signal, then logs and closes once, and leaves no signal handler behind', async () => {
    const before = process.listenerCount('SIGTERM');
    const events: string[] = [];
    await serveUntilStopped({
      log: (m) => events.push(`log ${m}`),
      serve: async () => {
        events.push('started');
        setTimeout(() => process.emit('SIGTERM'), 5);
        return async () => {
          events.push('closed');
        };
      },
    });
    expect(events).toEqual(['started', 'log stopping.', 'closed']);
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });

  it('stops at once when the signal came while starting, and returns without waiting when nothing is to close', async () => {
    const before = process.listenerCount('SIGINT');
    const events: string[] = [];
    await serveUntilStopped({
      log: (m) => events.push(`log ${m}`),
      serve: async () => {
        process.emit('SIGINT');
        return async () => {
          events.push('closed');
        };
      },
    });
    await serveUntilStopped({ log: (m) => events.push(`log ${m}`), serve: async () => null });
    expect(events).toEqual(['log stopping.', 'closed']);
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});

describe('accessNote', () => {
  it('names the token variable when one is set, else says loopback only', () => {
    expect(accessNote({ served: null, token: 's3cret', tokenEnv: 'PIE_TOKEN', requests: 'every API request' })).toBe(
      'every API request needs "Authorization: Bearer $PIE_TOKEN"',
    );
    expect(accessNote({ served: null, token: undefined, tokenEnv: 'PIE_TOKEN', requests: 'every request' })).toBe(
      'no token (loopback only)',
    );
  });
});
