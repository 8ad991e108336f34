// Vite: builds the SPA into client/dist (served by the API); the dev server proxies /api to the API on :3000.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

// Build-time client settings (validated again at start in src/config/env.ts).
const appEnv = {
  API_BASE_URL: process.env.CLIENT_API_BASE_URL ?? '/api',
};

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    // A brotli (.br) and a gzip (.gz) copy of every text asset at the strongest settings (the plugin's
    // defaults: brotli quality 11, gzip level 9): the API serves the copy the browser accepts, so nothing is
    // compressed per request. Source maps are left alone.
    compression({
      include: /\.(js|css|html|svg|json|txt)$/,
      exclude: /\.map$/,
      threshold: 512,
      algorithms: ['brotliCompress', 'gzip'],
    }),
  ],
  define: { __APP_ENV__: JSON.stringify(appEnv) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // 'hidden': maps are written for the operator but the bundles do not name them; the API serves them only
    // with SOURCE_MAPS_PUBLIC=true (and then points browsers at them with a SourceMap header).
    sourcemap: 'hidden',
    // dist/.vite/manifest.json: which chunks each entry and lazy page pulls in, read by the bundle budget check
    // (scripts/check-bundle.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The libraries every page runs on, in one chunk of their own: it changes only with a dependency
            // update, so a returning visitor keeps it cached across our releases. Left to the bundler they
            // land in a shared chunk named after whichever of our modules sorts first (it was "button").
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|mobx|mobx-react-lite)[\\/]/,
              priority: 2,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.CLIENT_DEV_API_URL ?? 'http://localhost:3000', changeOrigin: false } },
  },
});
