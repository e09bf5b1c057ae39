// The reason every change in the admin area asks for (packages/api admin.types.ts ZReason): typed in the action's
// dialog, checked as the server checks it (validation.ts), and kept in the audit log's Reason column.
import { Trans } from '@lingui/react/macro';
import { Textarea } from '@rooms/ui/textarea';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { markedIf } from './admin-form';
import { Field } from './form-dialog';
import { REASON_MAX_LENGTH } from './validation';

/** The field itself, registered with the dialog's form; `errorId` is the dialog's error line. */
export function ReasonField({
  id,
  field,
  invalid,
  errorId,
}: {
  id: string;
  field: UseFormRegisterReturn<'reason'>;
  /** Whether the error line is about the reason. */
  invalid: boolean;
  errorId: string;
}) {
  return (
    <Field
      id={id}
      label={<Trans>Reason</Trans>}
      hint={<Trans>Required, 3 to 500 characters. It is kept in the audit log.</Trans>}
    >
      <Textarea
        id={id}
        maxLength={REASON_MAX_LENGTH}
        rows={2}
        aria-required
        {...markedIf(invalid, errorId)}
        {...field}
        data-testid="admin-reason"
      />
    </Field>
  );
}
