import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

// The dashboard builds to dashboard/dist, which the service serves under /dashboard/. `base: './'` keeps every asset
// URL relative, so the same build works behind a proxy under any base path; routes live in the URL's hash.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  // Every text file of over 1 KiB is also written brotli- and gzip-compressed beside itself, which the service sends
  // to browsers that accept them (no compression work per request).
  plugins: [compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline module-preload polyfill script, so the page runs under a CSP without 'unsafe-inline'.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 700,
  },
});
