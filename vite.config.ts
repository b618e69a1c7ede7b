import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The web UI: sources in web/, built into dist/web (served by pie serve). Everything is bundled; no CDN. */
export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  base: '/',
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 800,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8766' } },
});
