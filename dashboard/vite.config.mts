import { defineConfig } from 'vite';

// The dashboard builds to dashboard/dist, which the service serves under /dashboard/. `base: './'` keeps every asset
// URL relative, so the same build works behind a proxy under any base path; routes live in the URL's hash.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
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
