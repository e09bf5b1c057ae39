// The reason every change in the admin area asks for (packages/api admin.types.ts ZReason): typed in the action's
// dialog, checked as the server checks it, and kept in the audit log's Reason column.
import { Trans, useLingui } from '@lingui/react/macro';
import { Textarea } from '@rooms/ui/textarea';
import { useState } from 'react';
import { Field } from './form-dialog';
import { checkReason, REASON_MAX_LENGTH } from './validation';

export interface TReason {
  value: string;
  set: (value: string) => void;
  /** What is wrong with it, translated, once a submit found out; null otherwise. */
  invalid: string | null;
  /** The trimmed reason, or null after marking the field with what is wrong with it. */
  check: () => string | null;
  reset: () => void;
}

export function useReason(): TReason {
  const { i18n } = useLingui();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  return {
    value,
    set: setValue,
    invalid,
    check() {
      const checked = checkReason(value);
      if (typeof checked !== 'string') {
        setInvalid(i18n._(checked));
        return null;
      }
      setInvalid(null);
      return checked;
    },
    reset() {
      setValue('');
      setInvalid(null);
    },
  };
}

/** The field itself; `errorId` is the dialog's error line, which names what is wrong with it. */
export function ReasonField({ id, reason, errorId }: { id: string; reason: TReason; errorId?: string }) {
  return (
    <Field
      id={id}
      label={<Trans>Reason</Trans>}
      hint={<Trans>Required, 3 to 500 characters. It is kept in the audit log.</Trans>}
    >
      <Textarea
        id={id}
        value={reason.value}
        maxLength={REASON_MAX_LENGTH}
        rows={2}
        aria-required
        aria-invalid={reason.invalid ? true : undefined}
        aria-describedby={reason.invalid ? errorId : undefined}
        onChange={(event) => reason.set(event.target.value)}
        data-testid="admin-reason"
      />
    </Field>
  );
}
