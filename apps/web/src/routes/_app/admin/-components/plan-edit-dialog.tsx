// Editing a plan: the form checks what the server checks (same texts, validation.ts ZPlanForm), asks why for the
// audit log, and shows what the server still refuses.

import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Checkbox } from '@rooms/ui/checkbox';
import { Input } from '@rooms/ui/input';
import { Label } from '@rooms/ui/label';
import { Textarea } from '@rooms/ui/textarea';
import type { ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import type { z } from 'zod';
import { appCodeOf, isAppError, trpcClient } from '../../../../lib/trpc';
import { type TAdminPlan, useAdminMutation, useFailureText } from './admin-api';
import { markedIf, useAdminForm } from './admin-form';
import { Field, FormDialog } from './form-dialog';
import { ReasonField } from './reason-field';
import { type TPlanForm, ZPlanForm } from './validation';

/**
 * The field a refusal from the server is about, so that field is marked as the form's own checks mark theirs. The
 * server names no field: its texts (packages/api admin.types.ts ZUpdatePlanRequest, domains/admin/plans.ts) do.
 */
const serverTextFields: [RegExp, keyof TPlanForm][] = [
  [/^The (plan needs a name|name )/, 'name'],
  [/^The description /, 'description'],
  [/^(The price |The free plan is claimed, not bought)/, 'price'],
  [/^The inventory /, 'inventory'],
  [/^Rooms /, 'maxRooms'],
  [/^Connections /, 'maxConnections'],
  [/^The width /, 'maxWidth'],
  [/^The height /, 'maxHeight'],
  [/^The frame rate /, 'maxFrameRate'],
  [/^The bitrate /, 'maxBitrateKbps'],
  [/^The time quota /, 'timeQuotaMinutes'],
  [/^The monthly free time /, 'freeTimeQuotaMinutes'],
  [/^The order /, 'sortOrder'],
];

function fieldOfServerError(error: unknown): keyof TPlanForm | undefined {
  if (!isAppError(error)) return undefined;
  const appCode = appCodeOf(error);
  if (appCode === 'PLAN_NAME_TAKEN') return 'name';
  if (appCode === 'PLAN_DEFAULT_DISABLED') return 'enabled';
  // A form rule's refusal (BAD_INPUT) carries only its text.
  return serverTextFields.find(([text]) => text.test(error.message))?.[1];
}

const ERROR_ID = 'plan-edit-error';

function formOf(plan: TAdminPlan): TPlanForm {
  return {
    name: plan.name,
    description: plan.description,
    price: plan.price.toFixed(2),
    inventory: plan.inventory === null ? '' : String(plan.inventory),
    maxRooms: String(plan.maxRooms),
    maxConnections: String(plan.maxConnections),
    maxWidth: String(plan.maxWidth),
    maxHeight: String(plan.maxHeight),
    maxFrameRate: String(plan.maxFrameRate),
    maxBitrateKbps: String(plan.maxBitrateKbps),
    timeQuotaMinutes: String(plan.timeQuotaMinutes),
    freeTimeQuotaMinutes: String(plan.freeTimeQuotaMinutes),
    enabled: plan.enabled,
    sortOrder: String(plan.sortOrder),
    reason: '',
  };
}

/** Mounted per plan being edited (keyed by the caller), so the form starts from that plan. */
export function PlanEditDialog({ plan, onClose }: { plan: TAdminPlan; onClose: () => void }) {
  const { i18n } = useLingui();
  const { form, invalid } = useAdminForm(ZPlanForm, formOf(plan));
  const save = useAdminMutation(
    ({ reason, ...values }: z.output<typeof ZPlanForm>) =>
      trpcClient.admin.plans.update.mutate({ id: plan.id, ...values, reason }),
    {
      success: (saved) => i18n._(msg`The plan “${saved.name}” was saved`),
      toastFailure: false,
      onSuccess: onClose,
    },
  );
  const serverError = useFailureText(save.error);
  const invalidField = invalid ? invalid.field : fieldOfServerError(save.error);
  /** The marking of the field the error is about, client's or server's alike. */
  const marked = (field: keyof TPlanForm) => markedIf(invalidField === field, ERROR_ID);

  const numberField = (
    field: Exclude<keyof TPlanForm, 'name' | 'description' | 'enabled' | 'reason'>,
    label: ReactNode,
    extra: {
      step?: number;
      hint?: ReactNode;
      placeholder?: string;
    } = {},
  ) => (
    <Field id={`plan-${field}`} label={label} hint={extra.hint}>
      <Input
        id={`plan-${field}`}
        type="number"
        inputMode={extra.step && extra.step < 1 ? 'decimal' : 'numeric'}
        step={extra.step ?? 1}
        placeholder={extra.placeholder}
        {...marked(field)}
        {...form.register(field)}
      />
    </Field>
  );

  return (
    <FormDialog
      open
      testId="plan-edit-dialog"
      title={<Trans>Edit plan</Trans>}
      description={
        plan.isDefault ? (
          <Trans>Everyone without another plan falls back to this plan; it cannot be disabled.</Trans>
        ) : undefined
      }
      submitLabel={<Trans>Save</Trans>}
      pending={save.isPending}
      error={invalid?.text ?? serverError}
      errorId={ERROR_ID}
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
      onClose={onClose}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <Field id="plan-name" label={<Trans>Name</Trans>}>
            <Input id="plan-name" maxLength={64} {...marked('name')} {...form.register('name')} />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <Field id="plan-description" label={<Trans>Description</Trans>}>
            <Textarea
              id="plan-description"
              maxLength={255}
              {...marked('description')}
              {...form.register('description')}
            />
          </Field>
        </div>
        {numberField('price', <Trans>Price (USD)</Trans>, { step: 0.01 })}
        {numberField('inventory', <Trans>Inventory</Trans>, {
          hint: <Trans>Empty: unlimited</Trans>,
          placeholder: i18n._(msg`Unlimited`),
        })}
        {numberField('maxRooms', <Trans>Max rooms</Trans>)}
        {numberField('maxConnections', <Trans>Max connections per room</Trans>)}
        {numberField('maxWidth', <Trans>Max width (px)</Trans>)}
        {numberField('maxHeight', <Trans>Max height (px)</Trans>)}
        {numberField('maxFrameRate', <Trans>Max frame rate (fps)</Trans>)}
        {numberField('maxBitrateKbps', <Trans>Max bitrate (kbps)</Trans>)}
        {numberField('timeQuotaMinutes', <Trans>Room time per period (minutes)</Trans>)}
        {numberField('freeTimeQuotaMinutes', <Trans>Free room time per month (minutes)</Trans>)}
        {numberField('sortOrder', <Trans>Order</Trans>, {
          hint: <Trans>Lower comes first in the plan list</Trans>,
        })}
        <div className="flex items-center gap-2 self-end pb-2">
          <Controller
            control={form.control}
            name="enabled"
            render={({ field }) => (
              <Checkbox
                id="plan-enabled"
                checked={field.value}
                {...marked('enabled')}
                onCheckedChange={(checked) => field.onChange(checked === true)}
              />
            )}
          />
          <Label htmlFor="plan-enabled">
            <Trans>Offered (enabled)</Trans>
          </Label>
        </div>
        <div className="sm:col-span-2">
          <ReasonField
            id="plan-reason"
            field={form.register('reason')}
            invalid={invalidField === 'reason'}
            errorId={ERROR_ID}
          />
        </div>
      </div>
    </FormDialog>
  );
}
