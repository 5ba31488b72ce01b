import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const panel = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  define: {
    // Versions the translation cache: a new build never reads strings cached by an older one.
    __TALON_BUILD__: JSON.stringify(Date.now().toString(36)),
  },
  build: {
    manifest: true,
    target: 'es2022',
    // Every browser that runs es2022 code supports <link rel="modulepreload">: no polyfill needed.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': panel,
      '/auth': {
        target: panel,
        bypass: (req) =>
          req.method === 'GET' && req.headers.accept?.includes('text/html') ? req.url : undefined,
      },
      '/sanctum': panel,
      '/locales': panel,
    },
  },
});
