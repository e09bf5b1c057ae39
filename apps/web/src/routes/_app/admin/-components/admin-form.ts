// The admin dialogs' forms on react-hook-form over a zod schema (validation.ts). They are checked when submitted,
// as they always were: the dialog's one error line names the first field's problem, in the order the fields are
// shown, and only that field is marked; the focus stays on the submit button.
import { zodResolver } from '@hookform/resolvers/zod';
import { useLingui } from '@lingui/react/macro';
import { type DefaultValues, type FieldValues, type Path, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { translateServerText } from '../../../../lib/messages';

export function useAdminForm<TInput extends FieldValues, TOutput>(
  schema: z.ZodType<TOutput, TInput>,
  /** Every field, in the order the dialog shows them. */
  defaultValues: TInput,
) {
  const { i18n } = useLingui();
  const form = useForm<TInput, unknown, TOutput>({
    resolver: zodResolver(schema),
    defaultValues: defaultValues as DefaultValues<TInput>,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const errors = form.formState.errors;
  const field = (Object.keys(defaultValues) as Path<TInput>[]).find((name) => errors[name]);
  const message = field ? errors[field]?.message : undefined;
  const invalid = field ? { field, text: translateServerText(i18n, String(message ?? '')) } : null;
  return { form, invalid };
}

/** The marking of a field the dialog's error line (`errorId`) is about. */
export function markedIf(invalid: boolean, errorId: string) {
  return invalid ? ({ 'aria-invalid': true, 'aria-describedby': errorId } as const) : {};
}
