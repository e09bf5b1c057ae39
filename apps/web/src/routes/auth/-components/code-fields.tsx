// The fields the register and reset forms share: the e-mail code with its send button, and a new password with
// its strength meter and confirmation.
import { Trans } from '@lingui/react/macro';
import { Input } from '@rooms/ui/input';
import type { ReactNode } from 'react';
import { PasswordInput } from '../../../components/password-input';
import { PasswordMeter } from '../../../components/password-meter';
import { Field } from './auth-shell';
import { DevMailboxHint } from './dev-mailbox-hint';
import { SendCodeButton } from './send-code-button';
import type { TEmailCode } from './use-email-code';

type TOnChange = (event: { target: { value: string } }) => void;

export function EmailCodeField(props: {
  value: string;
  onChange: TOnChange;
  emailCode: TEmailCode;
  onSend: () => void;
}) {
  return (
    <Field label={<Trans>Email code</Trans>} htmlFor="code">
      <div className="flex gap-2">
        <Input
          id="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={props.value}
          onChange={props.onChange}
        />
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
  password: string;
  confirm: string;
  onPassword: TOnChange;
  onConfirm: TOnChange;
}) {
  return (
    <>
      <Field label={props.label} htmlFor="password">
        <PasswordInput
          id="password"
          autoComplete="new-password"
          value={props.password}
          onChange={props.onPassword}
        />
        <PasswordMeter password={props.password} />
      </Field>
      <Field label={<Trans>Confirm password</Trans>} htmlFor="confirm">
        <PasswordInput
          id="confirm"
          autoComplete="new-password"
          value={props.confirm}
          onChange={props.onConfirm}
        />
      </Field>
    </>
  );
}
