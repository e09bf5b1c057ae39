import { useLingui } from '@lingui/react/macro';
import { LOCALES } from '@rooms/i18n';
import { Button } from '@rooms/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '@rooms/ui/dropdown-menu';
import { LanguagesIcon } from 'lucide-react';
import { chooseLocale } from '../../lib/i18n';

export function LanguageItems() {
  const { i18n } = useLingui();
  return (
    <DropdownMenuRadioGroup
      value={i18n.locale}
      onValueChange={(code) => {
        const locale = LOCALES.find((entry) => entry.code === code);
        if (locale && locale.code !== i18n.locale) chooseLocale(locale.code);
      }}
    >
      {LOCALES.map((locale) => (
        <DropdownMenuRadioItem key={locale.code} value={locale.code} data-testid={`language-${locale.code}`}>
          {locale.name}
        </DropdownMenuRadioItem>
      ))}
    </DropdownMenuRadioGroup>
  );
}

/** Choosing a language stores it and reloads the page. */
export function LanguageMenu({ variant = 'ghost' }: { variant?: 'ghost' | 'outline' }) {
  const { t, i18n } = useLingui();
  const current = LOCALES.find((locale) => locale.code === i18n.locale);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Named by what it shows, the current language, then what it is for ("English Language"): speech
            input users say the words they see. */}
        <Button variant={variant} size="sm" data-testid="language-button">
          <LanguagesIcon />
          <span className="max-sm:sr-only">{current?.name}</span>{' '}
          <span className="sr-only">{t`Language`}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <LanguageItems />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
