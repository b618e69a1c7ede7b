import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The built web UI (`vite build` writes it to dist/web). Found from this module's location, whether it runs from
 * src/ (tsx) or from dist/src/ (the built CLI): the nearest folder upwards with a package.json, then dist/web.
 */
export function defaultWebRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'package.json'))) {
      const root = join(dir, 'dist', 'web');
      return existsSync(join(root, 'index.html')) ? root : null;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

export interface StaticFile {
  body: Uint8Array;
  type: string;
  /** Hashed assets never change; everything else is revalidated. */
  immutable: boolean;
}

/** A file under `root` for a URL path; unknown paths without an extension get index.html (client-side routes). */
export async function readStatic(root: string, urlPath: string): Promise<StaticFile | null> {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const wanted = normalize(join(root, rel));
  if (wanted !== root && !wanted.startsWith(root + sep)) return null;
  const file = (await isFile(wanted)) ? wanted : extname(rel) === '' ? join(root, 'index.html') : null;
  if (file === null) return null;
  return {
    body: await readFile(file),
    type: TYPES[extname(file)] ?? 'application/octet-stream',
    immutable: file.includes(`${sep}assets${sep}`),
  };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return false;
    }
    throw error;
  }
}
