// Copying a share link or password with its toasts: 'share link copied to clipboard' on success,
// 'copy failed' with the reason on failure, both 3000 ms.
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { showToast } from '@rooms/ui/toaster';

export async function copyToClipboard(i18n: I18n, text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    showToast({
      severity: 'success',
      summary: i18n._(msg`success`),
      detail: i18n._(msg`share link copied to clipboard`),
    });
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    showToast({
      severity: 'error',
      summary: i18n._(msg`Error`),
      detail: `${i18n._(msg`copy failed`)} ${reason}`,
    });
    return false;
  }
}
