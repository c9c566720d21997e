/**
 * Vite config for the demo page. The page imports the library straight from ../src (TypeScript), so
 * what the page runs is what the tests in Node run. The Node-only 'webgpu' package (Dawn) is loaded by
 * src/backends/webgpu/device.ts through a guarded dynamic import with a computed specifier; it is also
 * marked external here so that no bundler step ever tries to resolve or bundle it.
 */
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  // Loopback only, fixed port so the printed address is predictable.
  server: { host: '127.0.0.1', port: 5173, fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    rollupOptions: { external: ['webgpu'] },
  },
  optimizeDeps: { exclude: ['webgpu'] },
});
