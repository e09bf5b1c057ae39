// The fields the register and reset forms share, registered with the page's form: the e-mail code with its send
// button, and a new password with its strength meter and confirmation.
import { Trans } from '@lingui/react/macro';
import { Input } from '@rooms/ui/input';
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { PasswordInput } from '../../../components/password-input';
import { PasswordMeter } from '../../../components/password-meter';
import { Field } from './auth-shell';
import { DevMailboxHint } from './dev-mailbox-hint';
import { SendCodeButton } from './send-code-button';
import type { TEmailCode } from './use-email-code';

export function EmailCodeField(props: {
  field: UseFormRegisterReturn<'code'>;
  emailCode: TEmailCode;
  onSend: () => void;
}) {
  return (
    <Field label={<Trans>Email code</Trans>} htmlFor="code">
      <div className="flex gap-2">
        <Input id="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...props.field} />
        <SendCodeButton
          remaining={props.emailCode.remaining}
          pending={props.emailCode.sending}
          onSend={props.onSend}
        />
      </div>
      <DevMailboxHint />
    </Field>
  );
}

export function NewPasswordFields(props: {
  label: ReactNode;
  password: UseFormRegisterReturn<'password'>;
  confirm: UseFormRegisterReturn<'confirm'>;
  /** The password as typed so far, for the strength meter. */
  typed: string;
}) {
  return (
    <>
      <Field label={props.label} htmlFor="password">
        <PasswordInput id="password" autoComplete="new-password" {...props.password} />
        <PasswordMeter password={props.typed} />
      </Field>
      <Field label={<Trans>Confirm password</Trans>} htmlFor="confirm">
        <PasswordInput id="confirm" autoComplete="new-password" {...props.confirm} />
      </Field>
    </>
  );
}
