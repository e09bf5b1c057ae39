import { Trans } from '@lingui/react/macro';
import { passwordStrength } from '../lib/password';
import { PasswordMeterBar } from './password-meter-bar';

export function PasswordMeter({ password }: { password: string }) {
  const strength = passwordStrength(password);
  return (
    <div className="space-y-1" data-testid="password-meter" data-strength={strength}>
      <PasswordMeterBar password={password} />
      <p className="text-muted-foreground text-xs">
        {strength === 'none' ? <Trans>Enter a password</Trans> : null}
        {strength === 'weak' ? <Trans>Weak</Trans> : null}
        {strength === 'medium' ? <Trans>Medium</Trans> : null}
        {strength === 'strong' ? <Trans>Strong</Trans> : null}
      </p>
    </div>
  );
}
