// The one Lingui configuration: apps/web re-exports it so the CLI and the Babel macro find it from there.
// Paths are absolute because the config is loaded from more than one folder.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LinguiConfig } from '@lingui/conf';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');

const config: LinguiConfig = {
  locales: ['en-US', 'zh-CN'],
  sourceLocale: 'en-US',
  fallbackLocales: { default: 'en-US' },
  rootDir: here,
  catalogs: [
    {
      path: path.join(here, 'src/locales/{locale}/messages'),
      include: [path.join(repo, 'apps/web/src'), path.join(repo, 'packages/ui/src')],
      exclude: ['**/node_modules/**', '**/*.test.ts', '**/*.test.tsx'],
    },
  ],
};

export default config;
