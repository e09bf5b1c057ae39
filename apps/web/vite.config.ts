import { fileURLToPath } from 'node:url';
import { linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const server = 'http://localhost:3000';

/**
 * The route modules the router plugin splits load their code through src/lib/lazy-route.ts instead of TanStack
 * Router's lazyRouteComponent, which reloads the page on a failed chunk even while the server is down (see there).
 */
function ownLazyRouteComponent(): Plugin {
  const routerImport = /import\s*\{\s*lazyRouteComponent\s*\}\s*from\s*['"]@tanstack\/react-router['"]/;
  const replacement = fileURLToPath(new URL('./src/lib/lazy-route.ts', import.meta.url));
  return {
    name: 'rooms:lazy-route-component',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('/src/routes/') || !routerImport.test(code)) return null;
      return {
        code: code.replace(routerImport, `import { lazyRouteComponent } from '${replacement}'`),
        map: null,
      };
    },
  };
}

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, quoteStyle: 'single', semicolons: true }),
    ownLazyRouteComponent(),
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
