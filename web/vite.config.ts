import { defineConfig } from 'vite';

// Run as `vite build web` (root = web/). esbuild's automatic JSX runtime: no Babel plugin needed.
export default defineConfig({
  base: '/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // React Server Components directives mean nothing in a client-only bundle
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000' },
  },
});
