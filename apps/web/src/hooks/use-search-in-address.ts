// The search box of a list page whose settled search lives in the address (`?q=`), so that going back from one
// row's page finds the same list.
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useDebouncedValue } from './use-debounced-value';

/**
 * `text` is what the box shows, `query` what it settled on (trimmed, after `delayMs` without typing); each settled
 * query is handed to `write`, which puts it in the address.
 */
export function useSearchInAddress(
  initial: string | undefined,
  write: (query: string | undefined) => void,
  delayMs = 300,
) {
  const [text, setText] = useState(initial ?? '');
  const query = useDebouncedValue(text.trim(), delayMs);
  const router = useRouter();
  const writeLatest = useRef(write);
  writeLatest.current = write;
  // The page the list is on. A row clicked while the typing settles is already being opened, and the list stays on
  // screen until that page has loaded: writing the search then would replace the row's page with the list again.
  const listPath = useRef(router.state.location.pathname);
  useEffect(() => {
    if (router.state.location.pathname !== listPath.current) return;
    writeLatest.current(query || undefined);
  }, [query, router]);
  return { text, setText, query };
}
