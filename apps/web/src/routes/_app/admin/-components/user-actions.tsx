// What an administrator can do to one account (the user page's action bar). Each change waits in a dialog for a
// confirmation or its few fields; the server's refusal is shown in the dialog, success toasts and refetches.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Input } from '@rooms/ui/input';
import { NativeSelect } from '@rooms/ui/native-select';
import { Textarea } from '@rooms/ui/textarea';
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
import { useState } from 'react';
import { formatMoney } from '../../../../lib/billing';
import { trpc, trpcClient } from '../../../../lib/trpc';
import { type TAdminUserDetail, useAdminMutation, useFailureText } from './admin-api';
import { Field, FormDialog } from './form-dialog';
import { LoginLinkDialog } from './login-link-dialog';
import { checkAmount, checkDays, checkLevel, checkReason } from './validation';

type TDialog = 'disable' | 'level' | 'plan' | 'balance' | 'reset' | 'sessions';

export function UserActions({ detail }: { detail: TAdminUserDetail }) {
  const { user } = detail;
  const [dialog, setDialog] = useState<TDialog | null>(null);
  const { i18n } = useLingui();
  const loginLink = useAdminMutation(() =>
    trpcClient.admin.users.createLoginLink.mutate({ userId: user.id }),
  );
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
      <Button
        variant="secondary"
        onClick={() => loginLink.mutate(undefined)}
        disabled={loginLink.isPending}
        data-testid="create-login-link"
      >
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
        run={() => trpcClient.admin.users.sendPasswordReset.mutate({ userId: user.id })}
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
        run={() => trpcClient.admin.users.endSessions.mutate({ userId: user.id })}
        success={i18n._(msg`All sessions were ended`)}
      />
      <LoginLinkDialog link={loginLink.data ?? null} onClose={() => loginLink.reset()} />
    </div>
  );
}

type TDialogProps = { open: boolean; detail: TAdminUserDetail; onClose: () => void };

function SimpleActionDialog({
  open,
  onClose,
  title,
  description,
  submitLabel,
  destructive,
  run,
  success,
}: {
  open: boolean;
  onClose: () => void;
  title: React.ReactNode;
  description: React.ReactNode;
  submitLabel: React.ReactNode;
  destructive?: boolean;
  run: () => Promise<unknown>;
  success: string;
}) {
  const action = useAdminMutation(run, { success: () => success, toastFailure: false, onSuccess: onClose });
  const error = useFailureText(action.error);
  return (
    <FormDialog
      open={open}
      title={title}
      description={description}
      submitLabel={submitLabel}
      destructive={destructive}
      pending={action.isPending}
      error={error}
      onSubmit={() => action.mutate(undefined)}
      onClose={() => {
        action.reset();
        onClose();
      }}
    />
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
      run={() => trpcClient.admin.users.setDisabled.mutate({ userId: user.id, disabled: disabling })}
      success={disabling ? i18n._(msg`The account was disabled`) : i18n._(msg`The account was enabled`)}
    />
  );
}

function SetLevelDialog({ open, detail, onClose }: TDialogProps) {
  const { i18n } = useLingui();
  const { user } = detail;
  const [level, setLevel] = useState(String(user.level));
  const [invalid, setInvalid] = useState<string | null>(null);
  const action = useAdminMutation(
    (value: number) => trpcClient.admin.users.setLevel.mutate({ userId: user.id, level: value }),
    { success: () => i18n._(msg`The level was changed`), toastFailure: false, onSuccess: onClose },
  );
  const serverError = useFailureText(action.error);
  const reset = () => {
    setLevel(String(user.level));
    setInvalid(null);
    action.reset();
  };
  return (
    <FormDialog
      open={open}
      title={<Trans>Set level</Trans>}
      description={<Trans>Levels above 1 show as VIP. A plan bought later sets the level again.</Trans>}
      submitLabel={<Trans>Save</Trans>}
      pending={action.isPending}
      error={invalid ?? serverError}
      onSubmit={() => {
        const checked = checkLevel(level);
        if (typeof checked !== 'number') return setInvalid(i18n._(checked));
        setInvalid(null);
        action.mutate(checked);
      }}
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
          value={level}
          onChange={(event) => setLevel(event.target.value)}
        />
      </Field>
    </FormDialog>
  );
}

function GrantPlanDialog({ open, detail, onClose }: TDialogProps) {
  const { i18n, t } = useLingui();
  const { user } = detail;
  const plans = useQuery({ ...trpc.admin.plans.list.queryOptions(), enabled: open });
  const [planId, setPlanId] = useState('');
  const [days, setDays] = useState('30');
  const [invalid, setInvalid] = useState<string | null>(null);
  const action = useAdminMutation(
    (input: { planId: string; days: number }) =>
      trpcClient.admin.users.grantPlan.mutate({ userId: user.id, ...input }),
    { success: () => i18n._(msg`The plan was granted`), toastFailure: false, onSuccess: onClose },
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
      error={invalid ?? actionError ?? plansError}
      onSubmit={() => {
        if (!planId) return setInvalid(i18n._(msg`Please choose a plan`));
        const checkedDays = checkDays(days);
        if (typeof checkedDays !== 'number') return setInvalid(i18n._(checkedDays));
        setInvalid(null);
        action.mutate({ planId, days: checkedDays });
      }}
      onClose={() => {
        setPlanId('');
        setDays('30');
        setInvalid(null);
        action.reset();
        onClose();
      }}
    >
      <Field id="admin-grant-plan" label={<Trans>Plan</Trans>}>
        <NativeSelect
          id="admin-grant-plan"
          value={planId}
          onChange={(event) => setPlanId(event.target.value)}
          disabled={!plans.data}
        >
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
          value={days}
          onChange={(event) => setDays(event.target.value)}
        />
      </Field>
    </FormDialog>
  );
}

function AdjustBalanceDialog({ open, detail, onClose }: TDialogProps) {
  const { i18n } = useLingui();
  const { user } = detail;
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const action = useAdminMutation(
    (input: { amount: number; reason: string }) =>
      trpcClient.admin.users.adjustBalance.mutate({ userId: user.id, ...input }),
    { success: () => i18n._(msg`The balance was adjusted`), toastFailure: false, onSuccess: onClose },
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
      error={invalid ?? serverError}
      onSubmit={() => {
        const checkedAmount = checkAmount(amount);
        if (typeof checkedAmount !== 'number') return setInvalid(i18n._(checkedAmount));
        const checkedReason = checkReason(reason);
        if (typeof checkedReason !== 'string') return setInvalid(i18n._(checkedReason));
        setInvalid(null);
        action.mutate({ amount: checkedAmount, reason: checkedReason });
      }}
      onClose={() => {
        setAmount('');
        setReason('');
        setInvalid(null);
        action.reset();
        onClose();
      }}
    >
      <Field id="admin-balance-amount" label={<Trans>Amount (USD)</Trans>}>
        <Input
          id="admin-balance-amount"
          type="number"
          inputMode="decimal"
          step={0.01}
          value={amount}
          placeholder="-5.00"
          onChange={(event) => setAmount(event.target.value)}
        />
      </Field>
      <Field id="admin-balance-reason" label={<Trans>Reason</Trans>}>
        <Textarea
          id="admin-balance-reason"
          value={reason}
          maxLength={500}
          onChange={(event) => setReason(event.target.value)}
        />
      </Field>
    </FormDialog>
  );
}
