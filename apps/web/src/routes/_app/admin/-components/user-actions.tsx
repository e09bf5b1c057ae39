// What an administrator can do to one account (the user page's action bar). Each change waits in a dialog for its
// few fields and the reason the audit log keeps; the server's refusal is shown in the dialog, success toasts and
// refetches.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Input } from '@rooms/ui/input';
import { NativeSelect } from '@rooms/ui/native-select';
import { useQuery } from '@tanstack/react-query';
import {
  BanIcon,
  CircleCheckIcon,
  CreditCardIcon,
  KeyRoundIcon,
  LogInIcon,
  LogOutIcon,
  SignalIcon,
  WalletIcon,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { formatMoney } from '../../../../lib/billing';
import { trpc, trpcClient } from '../../../../lib/trpc';
import { type TAdminUserDetail, useAdminMutation, useFailureText } from './admin-api';
import { markedIf, useAdminForm } from './admin-form';
import { Field, FormDialog } from './form-dialog';
import { LoginLinkDialog } from './login-link-dialog';
import { ReasonField } from './reason-field';
import { ZAdjustBalanceForm, ZGrantPlanForm, ZLevelForm, ZReasonForm } from './validation';

type TDialog = 'disable' | 'level' | 'plan' | 'balance' | 'reset' | 'sessions' | 'login';

/** The id of a dialog's error line, which the field it is about names (one dialog is open at a time). */
const ERROR_ID = 'user-action-error';

export function UserActions({ detail }: { detail: TAdminUserDetail }) {
  const { user } = detail;
  const [dialog, setDialog] = useState<TDialog | null>(null);
  const { i18n } = useLingui();
  const [loginLink, setLoginLink] = useState<{ url: string; expiresAt: Date } | null>(null);
  const close = () => setDialog(null);

  return (
    <div className="flex flex-wrap gap-2" data-testid="user-actions">
      <Button
        variant={user.disabled ? 'default' : 'destructive'}
        onClick={() => setDialog('disable')}
        data-testid="user-toggle-disabled"
      >
        {user.disabled ? <CircleCheckIcon /> : <BanIcon />}
        {user.disabled ? <Trans>Enable</Trans> : <Trans>Disable</Trans>}
      </Button>
      <Button variant="outline" onClick={() => setDialog('level')}>
        <SignalIcon />
        <Trans>Set level</Trans>
      </Button>
      <Button variant="outline" onClick={() => setDialog('plan')}>
        <CreditCardIcon />
        <Trans>Grant plan</Trans>
      </Button>
      <Button variant="outline" onClick={() => setDialog('balance')}>
        <WalletIcon />
        <Trans>Adjust balance</Trans>
      </Button>
      <Button variant="outline" onClick={() => setDialog('reset')}>
        <KeyRoundIcon />
        <Trans>Send password-reset e-mail</Trans>
      </Button>
      <Button variant="outline" onClick={() => setDialog('sessions')}>
        <LogOutIcon />
        <Trans>End all sessions</Trans>
      </Button>
      <Button variant="secondary" onClick={() => setDialog('login')} data-testid="create-login-link">
        <LogInIcon />
        <Trans>Sign in as this user</Trans>
      </Button>

      <SetDisabledDialog open={dialog === 'disable'} detail={detail} onClose={close} />
      <SetLevelDialog open={dialog === 'level'} detail={detail} onClose={close} />
      <GrantPlanDialog open={dialog === 'plan'} detail={detail} onClose={close} />
      <AdjustBalanceDialog open={dialog === 'balance'} detail={detail} onClose={close} />
      <SimpleActionDialog
        open={dialog === 'reset'}
        onClose={close}
        title={<Trans>Send a password-reset e-mail?</Trans>}
        description={
          <Trans>
            {user.email} receives a link to choose a new password. The current password keeps working until
            then.
          </Trans>
        }
        submitLabel={<Trans>Send</Trans>}
        run={(reason) => trpcClient.admin.users.sendPasswordReset.mutate({ userId: user.id, reason })}
        success={i18n._(msg`The password-reset e-mail was sent`)}
      />
      <SimpleActionDialog
        open={dialog === 'sessions'}
        onClose={close}
        destructive
        title={<Trans>End all sessions?</Trans>}
        description={
          <Trans>
            {user.email} is signed out on every device, including sessions an administrator opened as this
            user.
          </Trans>
        }
        submitLabel={<Trans>End all sessions</Trans>}
        run={(reason) => trpcClient.admin.users.endSessions.mutate({ userId: user.id, reason })}
        success={i18n._(msg`All sessions were ended`)}
      />
      <SimpleActionDialog
        open={dialog === 'login'}
        onClose={close}
        testId="login-link-reason-dialog"
        title={<Trans>Sign in as this user?</Trans>}
        description={
          <Trans>
            You get a one-time link that signs a browser in as {user.email}. What you change there is recorded
            in the audit log as yours; paying, deleting rooms and the password stay the user’s.
          </Trans>
        }
        submitLabel={<Trans>Create the link</Trans>}
        run={(reason) => trpcClient.admin.users.createLoginLink.mutate({ userId: user.id, reason })}
        onDone={setLoginLink}
      />
      <LoginLinkDialog link={loginLink} onClose={() => setLoginLink(null)} />
    </div>
  );
}

type TDialogProps = { open: boolean; detail: TAdminUserDetail; onClose: () => void };

/** A change that takes nothing but its reason. */
function SimpleActionDialog<TResult>({
  open,
  onClose,
  title,
  description,
  submitLabel,
  destructive,
  run,
  success,
  onDone,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description: ReactNode;
  submitLabel: ReactNode;
  destructive?: boolean;
  run: (reason: string) => Promise<TResult>;
  /** The success toast's text; none when omitted. */
  success?: string;
  onDone?: (result: TResult) => void;
  testId?: string;
}) {
  const { form, invalid } = useAdminForm(ZReasonForm, { reason: '' });
  const finish = () => {
    form.reset();
    action.reset();
    onClose();
  };
  const action = useAdminMutation(run, {
    success: success === undefined ? undefined : () => success,
    toastFailure: false,
    onSuccess: (result) => {
      finish();
      onDone?.(result);
    },
  });
  const error = useFailureText(action.error);
  return (
    <FormDialog
      open={open}
      testId={testId}
      title={title}
      description={description}
      submitLabel={submitLabel}
      destructive={destructive}
      pending={action.isPending}
      error={invalid?.text ?? error}
      errorId={ERROR_ID}
      onSubmit={form.handleSubmit(({ reason }) => action.mutate(reason))}
      onClose={finish}
    >
      <ReasonField
        id="admin-action-reason"
        field={form.register('reason')}
        invalid={invalid?.field === 'reason'}
        errorId={ERROR_ID}
      />
    </FormDialog>
  );
}

function SetDisabledDialog({ open, detail, onClose }: TDialogProps) {
  const { i18n } = useLingui();
  const { user } = detail;
  const disabling = !user.disabled;
  return (
    <SimpleActionDialog
      open={open}
      onClose={onClose}
      destructive={disabling}
      title={disabling ? <Trans>Disable this account?</Trans> : <Trans>Enable this account?</Trans>}
      description={
        disabling ? (
          <Trans>
            {user.email} is signed out everywhere and cannot sign in until the account is enabled again.
            Running rooms are stopped.
          </Trans>
        ) : (
          <Trans>{user.email} can sign in again.</Trans>
        )
      }
      submitLabel={disabling ? <Trans>Disable</Trans> : <Trans>Enable</Trans>}
      run={(reason) =>
        trpcClient.admin.users.setDisabled.mutate({ userId: user.id, disabled: disabling, reason })
      }
      success={disabling ? i18n._(msg`The account was disabled`) : i18n._(msg`The account was enabled`)}
    />
  );
}

function SetLevelDialog({ open, detail, onClose }: TDialogProps) {
  const { i18n } = useLingui();
  const { user } = detail;
  const { form, invalid } = useAdminForm(ZLevelForm, { level: String(user.level), reason: '' });
  const reset = () => {
    form.reset({ level: String(user.level), reason: '' });
    action.reset();
  };
  const action = useAdminMutation(
    (input: { level: number; reason: string }) =>
      trpcClient.admin.users.setLevel.mutate({ userId: user.id, ...input }),
    {
      success: () => i18n._(msg`The level was changed`),
      toastFailure: false,
      onSuccess: () => {
        reset();
        onClose();
      },
    },
  );
  const serverError = useFailureText(action.error);
  return (
    <FormDialog
      open={open}
      title={<Trans>Set level</Trans>}
      description={<Trans>Levels above 1 show as VIP. A plan bought later sets the level again.</Trans>}
      submitLabel={<Trans>Save</Trans>}
      pending={action.isPending}
      error={invalid?.text ?? serverError}
      errorId={ERROR_ID}
      onSubmit={form.handleSubmit((values) => action.mutate(values))}
      onClose={() => {
        reset();
        onClose();
      }}
    >
      <Field id="admin-level" label={<Trans>Level (1–99)</Trans>}>
        <Input
          id="admin-level"
          type="number"
          inputMode="numeric"
          min={1}
          max={99}
          step={1}
          {...markedIf(invalid?.field === 'level', ERROR_ID)}
          {...form.register('level')}
        />
      </Field>
      <ReasonField
        id="admin-level-reason"
        field={form.register('reason')}
        invalid={invalid?.field === 'reason'}
        errorId={ERROR_ID}
      />
    </FormDialog>
  );
}

function GrantPlanDialog({ open, detail, onClose }: TDialogProps) {
  const { i18n, t } = useLingui();
  const { user } = detail;
  const plans = useQuery({ ...trpc.admin.plans.list.queryOptions(), enabled: open });
  const { form, invalid } = useAdminForm(ZGrantPlanForm, { planId: '', days: '30', reason: '' });
  const finish = () => {
    form.reset();
    action.reset();
    onClose();
  };
  const action = useAdminMutation(
    (input: { planId: string; days: number; reason: string }) =>
      trpcClient.admin.users.grantPlan.mutate({ userId: user.id, ...input }),
    { success: () => i18n._(msg`The plan was granted`), toastFailure: false, onSuccess: finish },
  );
  const actionError = useFailureText(action.error);
  const plansError = useFailureText(plans.error);
  return (
    <FormDialog
      open={open}
      title={<Trans>Grant plan</Trans>}
      description={
        <Trans>
          The user holds the plan from now for the given number of days, free of charge. It replaces the
          current plan ({detail.plan.name}).
        </Trans>
      }
      submitLabel={<Trans>Grant</Trans>}
      pending={action.isPending}
      error={invalid?.text ?? actionError ?? plansError}
      errorId={ERROR_ID}
      onSubmit={form.handleSubmit((values) => action.mutate(values))}
      onClose={finish}
    >
      <Field id="admin-grant-plan" label={<Trans>Plan</Trans>}>
        <NativeSelect id="admin-grant-plan" {...form.register('planId')} disabled={!plans.data}>
          <option value="">{plans.isPending ? t`Loading…` : t`Choose a plan`}</option>
          {plans.data?.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {plan.name}
              {plan.enabled ? '' : ` (${t`disabled`})`}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id="admin-grant-days" label={<Trans>Days (1–3650)</Trans>}>
        <Input
          id="admin-grant-days"
          type="number"
          inputMode="numeric"
          min={1}
          max={3650}
          step={1}
          {...form.register('days')}
        />
      </Field>
      <ReasonField
        id="admin-grant-reason"
        field={form.register('reason')}
        invalid={invalid?.field === 'reason'}
        errorId={ERROR_ID}
      />
    </FormDialog>
  );
}

function AdjustBalanceDialog({ open, detail, onClose }: TDialogProps) {
  const { i18n } = useLingui();
  const { user } = detail;
  const { form, invalid } = useAdminForm(ZAdjustBalanceForm, { amount: '', reason: '' });
  const finish = () => {
    form.reset();
    action.reset();
    onClose();
  };
  const action = useAdminMutation(
    (input: { amount: number; reason: string }) =>
      trpcClient.admin.users.adjustBalance.mutate({ userId: user.id, ...input }),
    { success: () => i18n._(msg`The balance was adjusted`), toastFailure: false, onSuccess: finish },
  );
  const serverError = useFailureText(action.error);
  const balance = formatMoney(i18n, detail.balance);
  return (
    <FormDialog
      open={open}
      title={<Trans>Adjust balance</Trans>}
      description={
        <Trans>
          The balance is {balance}. A positive amount credits the account, a negative one debits it; both are
          written to the ledger with the reason.
        </Trans>
      }
      submitLabel={<Trans>Adjust</Trans>}
      pending={action.isPending}
      error={invalid?.text ?? serverError}
      errorId={ERROR_ID}
      onSubmit={form.handleSubmit((values) => action.mutate(values))}
      onClose={finish}
    >
      <Field id="admin-balance-amount" label={<Trans>Amount (USD)</Trans>}>
        <Input
          id="admin-balance-amount"
          type="number"
          inputMode="decimal"
          step={0.01}
          placeholder="-5.00"
          {...form.register('amount')}
        />
      </Field>
      <ReasonField
        id="admin-balance-reason"
        field={form.register('reason')}
        invalid={invalid?.field === 'reason'}
        errorId={ERROR_ID}
      />
    </FormDialog>
  );
}
