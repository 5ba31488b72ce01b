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
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The form code the sign-in page needs (react-hook-form, its zod resolver, zod's core, the
          // shared sign-in rules) as one chunk. Left alone, the bundler splits it by which areas use
          // which part (the admin uses react-hook-form without zod), and every split costs the
          // sign-in download a few hundred bytes of its 150 KB budget (bench/web-size.mjs).
          groups: [
            {
              name: 'forms',
              test: /[\\/]node_modules[\\/](react-hook-form|@hookform[\\/]resolvers|zod)[\\/]|[\\/]shared[\\/]src[\\/]validation[\\/](messages|auth)\.ts$/,
              includeDependenciesRecursively: false,
            },
            {
              // The small pieces every page shares with the sign-in page (button, field, message box,
              // flash messages, title, navigation and text helpers): one chunk instead of several, each
              // of which cost the sign-in download its own request and gzip overhead.
              name: 'ui',
              test: /[\\/]src[\\/](components[\\/](Button|Field|MessageBox)\.tsx|app[\\/]FlashMessageRender\.tsx|lib[\\/](navigation|useTitle)\.ts|format[\\/]text\.ts)$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
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
