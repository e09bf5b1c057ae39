import { useLingui } from '@lingui/react/macro';
import { LOCALES } from '@rooms/i18n';
import { LanguagesIcon } from 'lucide-react';
import { chooseLocale } from '../../lib/i18n';

/** A light language chooser for public pages (a native select keeps the landing page's script small). */
export function LanguageSelect() {
  const { t, i18n } = useLingui();
  return (
    // The focus ring goes round the whole label: on phones the select itself is a transparent 20 px strip.
    <label className="relative flex h-8 items-center gap-1.5 rounded-md px-2 text-sm hover:bg-accent has-[select:focus-visible]:ring-[3px] has-[select:focus-visible]:ring-ring/50">
      <LanguagesIcon className="size-4" aria-hidden />
      <select
        aria-label={t`Language`}
        data-testid="language-select"
        value={i18n.locale}
        onChange={(event) => {
          const locale = LOCALES.find((entry) => entry.code === event.target.value);
          if (locale) chooseLocale(locale.code);
        }}
        className="cursor-pointer appearance-none bg-transparent outline-none max-sm:w-5 max-sm:text-transparent [&>option]:bg-popover [&>option]:text-popover-foreground"
      >
        {LOCALES.map((locale) => (
          <option key={locale.code} value={locale.code}>
            {locale.name}
          </option>
        ))}
      </select>
    </label>
  );
}
