// The dark-mode toggle only ever turns dark on (with a view transition where the browser has one).
export function enableDarkMode(root: HTMLElement = document.documentElement): void {
  if (root.classList.contains('dark')) return;
  const apply = () => {
    root.classList.add('dark');
    root.style.colorScheme = 'dark';
  };
  const doc = root.ownerDocument as Document & { startViewTransition?: (callback: () => void) => unknown };
  if (typeof doc.startViewTransition === 'function') doc.startViewTransition(apply);
  else apply();
}
