// Route code arrives on demand (the router plugin's code splitting); vite.config.ts puts this lazyRouteComponent in
// place of TanStack Router's. The router's own reloads the page whenever a chunk fails to load: right after a
// deploy, when the old chunk is gone, but with the server down that reload leaves the tab on the browser's "site
// can't be reached" page, the app and its state lost. Here a failed chunk reloads the page only when the server
// answers; otherwise the route shows the failure (ChunkLoadError) and the next navigation tries again.
import type { AsyncRouteComponent } from '@tanstack/react-router';
import { type ComponentType, createElement } from 'react';

/** A route's code could not be fetched: the server (or the network to it) does not answer. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'ChunkLoadError';
  }
}

const HEALTH_TIMEOUT_MS = 5000;

/** Forgets each failed chunk so that it is fetched again. */
const failures = new Set<() => void>();

/** The router calls this before each navigation (router.tsx): a chunk that failed gets another try. */
export function retryFailedChunks(): void {
  for (const forget of failures) forget();
  failures.clear();
}

/** How browsers word a module that could not be fetched (Chromium, Firefox, Safari), and Vite's CSS preload. */
function isFetchFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /^(Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS)/.test(
    message,
  );
}

async function serverAnswers(): Promise<boolean> {
  try {
    const response = await fetch('/healthz', {
      cache: 'no-store',
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * With the server up, a chunk that cannot be fetched was replaced by a newer deploy: the page reloads into the new
 * version. Once per chunk and tab, so a chunk that stays broken shows its failure instead of reloading forever.
 */
function reloadOnce(error: unknown): boolean {
  const key = `rooms:chunk-reload:${error instanceof Error ? error.message : String(error)}`;
  if (sessionStorage.getItem(key)) return false;
  sessionStorage.setItem(key, '1');
  location.reload();
  return true;
}

export function lazyRouteComponent<
  TModule extends Record<string, unknown>,
  TKey extends keyof TModule = 'default',
>(importer: () => Promise<TModule>, exportName?: TKey): AsyncRouteComponent<unknown> {
  let component: ComponentType | undefined;
  let failure: unknown;
  let loading: Promise<void> | undefined;

  // Never rejects: the router keeps a rejected preload for good, so the failure is kept here and thrown at render,
  // where the route's error component shows it, until retryFailedChunks clears it.
  const load = (): Promise<void> => {
    loading ??= importer().then(
      (module) => {
        component = module[exportName ?? 'default'] as ComponentType;
        loading = undefined;
      },
      async (error: unknown) => {
        if (!isFetchFailure(error)) {
          failure = error;
        } else if ((await serverAnswers()) && reloadOnce(error)) {
          // The page is going away; stay suspended until it does.
          return new Promise<void>(() => {});
        } else {
          failure = new ChunkLoadError(error);
        }
        failures.add(() => {
          failure = undefined;
        });
        loading = undefined;
      },
    );
    return loading;
  };

  // biome-ignore lint/correctness/noComponentHookFactories: made once per route when its module loads, as React.lazy is.
  const Lazy = (props: Record<string, unknown>) => {
    if (failure !== undefined) throw failure;
    if (!component) throw load();
    return createElement(component, props);
  };
  Lazy.preload = load;
  return Lazy as AsyncRouteComponent<unknown>;
}
