import { cn } from '@rooms/ui/lib/utils';
import { passwordStrength, strengthPercent, type TPasswordStrength } from '../lib/password';

const tone: Record<TPasswordStrength, string> = {
  none: 'bg-transparent',
  weak: 'bg-destructive',
  medium: 'bg-warning',
  strong: 'bg-success',
};

/**
 * The bar of the password strength meter: weak, medium, strong fill 33.33 %, 66.66 %, 100 %. Its name and the
 * strength in words come from the meter around it, which says them in the page's language.
 */
export function PasswordMeterBar({
  password,
  label,
  valueText,
}: {
  password: string;
  label: string;
  valueText: string;
}) {
  const strength = passwordStrength(password);
  const percent = strengthPercent(strength);
  return (
    // biome-ignore lint/a11y/useSemanticElements: <meter> cannot be styled consistently across browsers.
    <div
      className="h-1.5 w-full overflow-hidden rounded-full bg-secondary"
      role="meter"
      aria-label={label}
      aria-valuetext={valueText}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      data-strength={strength}
    >
      <div
        className={cn('h-full transition-all', tone[strength])}
        style={{ width: `${percent}%` }}
        data-testid="password-meter-bar"
      />
    </div>
  );
}
