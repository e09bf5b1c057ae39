import { linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = 'http://localhost:3000';

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, quoteStyle: 'single', semicolons: true }),
    // Lingui's macros must be expanded before React's transform sees the JSX.
    babel({ presets: [linguiTransformerBabelPreset()] }),
    react(),
    tailwindcss(),
  ],
  server: {
    proxy: {
      '/trpc': server,
      '/api': server,
      '/dev': server,
      '/ws': { target: server, ws: true },
    },
  },
  build: {
    target: 'es2022',
  },
});
