import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { toastError } from '../lib/notify';

/** Toasts a query's failure once per error, led by what failed ('Failed to retrieve …'). */
export function useFailureToast(error: unknown, text: string): void {
  const { i18n } = useLingui();
  useEffect(() => {
    if (error) toastError(i18n, error, { prefix: text, unreachable: text });
  }, [error, i18n, text]);
}
