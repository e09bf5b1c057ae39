import { useLingui } from '@lingui/react/macro';
import { passwordStrength, type TPasswordStrength } from '../lib/password';
import { PasswordMeterBar } from './password-meter-bar';

export function PasswordMeter({ password }: { password: string }) {
  const { t } = useLingui();
  const strength = passwordStrength(password);
  const words: Record<TPasswordStrength, string> = {
    none: t`Enter a password`,
    weak: t`Weak`,
    medium: t`Medium`,
    strong: t`Strong`,
  };
  return (
    <div className="space-y-1" data-testid="password-meter" data-strength={strength}>
      <PasswordMeterBar password={password} label={t`Password strength`} valueText={words[strength]} />
      <p className="text-muted-foreground text-xs">{words[strength]}</p>
    </div>
  );
}
