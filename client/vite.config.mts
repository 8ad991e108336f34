// Vite: builds the SPA into client/dist (served by the API); the dev server proxies /api to the API on :3000.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Build-time client settings (validated again at start in src/config/env.ts).
const appEnv = {
  API_BASE_URL: process.env.CLIENT_API_BASE_URL ?? '/api',
  IP_COUNTRY_URL: process.env.CLIENT_IP_COUNTRY_URL ?? 'https://ip2c.org/s',
};

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  define: { __APP_ENV__: JSON.stringify(appEnv) },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.CLIENT_DEV_API_URL ?? 'http://localhost:3000', changeOrigin: false } },
  },
});
