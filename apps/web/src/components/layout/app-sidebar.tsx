import { Trans, useLingui } from '@lingui/react/macro';
import { cn } from '@rooms/ui/lib/utils';
import { Link, useLocation } from '@tanstack/react-router';
import { forwardRef } from 'react';
import { useCurrentUser } from '../../hooks/use-current-user';
import { activeItem, visibleSections } from './menu-model';

export const AppSidebar = forwardRef<
  HTMLElement,
  { visible: boolean; floating: boolean; onChoose: (to: string) => void }
>(function AppSidebar({ visible, floating, onChoose }, ref) {
  const { i18n, t } = useLingui();
  const pathname = useLocation({ select: (location) => location.pathname });
  const current = activeItem(pathname);
  const sections = visibleSections(useCurrentUser().role);
  return (
    <aside
      ref={ref}
      data-testid="sidebar"
      data-visible={visible}
      aria-hidden={!visible}
      inert={!visible}
      className={cn(
        // It ends where the layout's bottom bar begins (app-layout.tsx), so that bar never covers its footer.
        'fixed top-16 bottom-[var(--app-bottom-inset,0px)] left-0 z-[1000] flex w-72 flex-col border-r bg-card transition-transform duration-200',
        visible ? 'translate-x-0' : '-translate-x-full',
        floating && 'shadow-2xl',
      )}
    >
      <nav className="flex-1 overflow-y-auto px-4 py-4" aria-label={t`Main menu`}>
        {sections.map((section, index) => (
          <div key={section.items[0]?.to ?? index} className="mb-3">
            {section.heading ? (
              <div className="px-3 pt-2 pb-1 font-semibold text-muted-foreground text-xs uppercase tracking-wide">
                {i18n._(section.heading)}
              </div>
            ) : (
              <div className="h-2" />
            )}
            <ul>
              {section.items
                .filter((item) => item.visible !== false)
                .map((item) => (
                  <li key={item.to}>
                    <Link
                      to={item.to}
                      disabled={item.disabled}
                      onClick={() => onChoose(item.to)}
                      aria-current={current === item.to ? 'page' : undefined}
                      className={cn(
                        'flex items-center gap-3 rounded-md px-3 py-2 text-sm transition-colors hover:bg-accent',
                        current === item.to && 'bg-primary/15 font-medium text-primary hover:bg-primary/20',
                      )}
                    >
                      <item.icon className="size-4" />
                      {i18n._(item.label)}
                    </Link>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </nav>
      <footer className="border-t px-6 py-3 text-muted-foreground text-xs">
        <Link to="/about" className="hover:text-foreground" onClick={() => onChoose('/about')}>
          <Trans>© {new Date().getFullYear()} Cloud-browser rooms · v1.0.0</Trans>
        </Link>
      </footer>
    </aside>
  );
});
