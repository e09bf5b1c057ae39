// Pieces every admin screen shares: the page heading and the labels of roles, report outcomes and ledger entries
// (the tables are data-table.tsx).
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import type { ReactNode } from 'react';
import type { TAdminUserDetail, TReportAction } from './admin-api';

export function AdminPageHeader({
  title,
  description,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="font-semibold text-2xl">{title}</h1>
        {description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
      </div>
      {children ? <div className="flex flex-wrap items-end gap-2">{children}</div> : null}
    </div>
  );
}

export function RoleBadge({ role }: { role: 'user' | 'admin' }) {
  return role === 'admin' ? (
    <Badge variant="vip" data-testid="user-role" data-role={role}>
      <Trans>Administrator</Trans>
    </Badge>
  ) : (
    <Badge variant="outline" data-testid="user-role" data-role={role}>
      <Trans>User</Trans>
    </Badge>
  );
}

export function DisabledBadge({ disabled }: { disabled: boolean }) {
  if (!disabled) return null;
  return (
    <Badge variant="warning" className="bg-destructive/20 text-destructive" data-testid="user-disabled">
      <Trans>Disabled</Trans>
    </Badge>
  );
}

export function reportActionLabel(i18n: I18n, action: TReportAction): string {
  switch (action) {
    case 'dismiss':
      return i18n._(msg`Dismissed`);
    case 'hide':
      return i18n._(msg`Hidden from the square`);
    case 'stop':
      return i18n._(msg`Room stopped`);
    case 'disableOwner':
      return i18n._(msg`Owner disabled`);
  }
}

type TLedgerKind = TAdminUserDetail['ledger'][number]['kind'];

export function ledgerKindLabel(i18n: I18n, kind: TLedgerKind): string {
  switch (kind) {
    case 'recharge':
      return i18n._(msg`Recharge`);
    case 'purchase':
      return i18n._(msg`Purchase`);
    case 'refund':
      return i18n._(msg`Refund`);
    case 'adjustment':
      return i18n._(msg`Adjustment`);
  }
}

/** Seconds as "2 d 3 h", "3 h 5 min" or "4 min". */
export function formatUptime(i18n: I18n, seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (days > 0) return i18n._(msg`${days} d ${hours % 24} h`);
  if (hours > 0) return i18n._(msg`${hours} h ${minutes % 60} min`);
  return i18n._(msg`${minutes} min`);
}
