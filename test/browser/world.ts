import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWorld, WORLD_NOW, type WorldFile } from '../../bench/generate/world.js';
import { servePie, type SampleServer } from './server.js';

/**
 * The benchmark's synthetic world (20,016 entities, ~198k transitions, 50k episodes; bench/generate/world.ts),
 * generated once into `dir` (by default a folder of the system's temp directory, so later test runs reuse it: it
 * takes about 30 s on an idle machine, 70 s on a busy one) and served read-only by the real `pie serve`, "now" just
 * after the world ends. Read-only, so the cached file is never changed by a test.
 */
export async function startWorldServer(
  input: { dir?: string } = {},
): Promise<{ server: SampleServer; world: WorldFile }> {
  const world = await ensureWorld({ dir: input.dir ?? join(tmpdir(), 'pie-test-world') });
  const now = new Date(WORLD_NOW).toISOString().slice(0, 10);
  const args = ['--db', world.path, '--tz', 'UTC', '--now', now, 'serve', '--port', '0', '--read-only'];
  return { server: await servePie({ args, db: world.path }), world };
}
