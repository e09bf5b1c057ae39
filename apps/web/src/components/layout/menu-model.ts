// The sidebar's entries, grouped under section headings; labels come from the translation table.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { LucideIcon } from 'lucide-react';
import {
  CircleHelpIcon,
  CreditCardIcon,
  FlagIcon,
  GlobeIcon,
  LayoutDashboardIcon,
  MonitorPlayIcon,
  PackageIcon,
  ReceiptIcon,
  ScrollTextIcon,
  ServerIcon,
  UserRoundIcon,
  UsersIcon,
  WalletCardsIcon,
} from 'lucide-react';

export interface TMenuItem {
  label: MessageDescriptor;
  to:
    | '/dashboard'
    | '/publicrooms'
    | '/planlist'
    | '/bill'
    | '/help'
    | '/serverstate'
    | '/profile'
    | '/admin/users'
    | '/admin/rooms'
    | '/admin/reports'
    | '/admin/plans'
    | '/admin/payments'
    | '/admin/audit';
  icon: LucideIcon;
  visible?: boolean;
  disabled?: boolean;
}

export interface TMenuSection {
  heading: MessageDescriptor | null;
  items: TMenuItem[];
  /** Shown to administrators only (the admin area answers anyone else with not-found anyway). */
  adminOnly?: boolean;
}

export const menuModel: TMenuSection[] = [
  { heading: msg`Home`, items: [{ label: msg`Dashboard`, to: '/dashboard', icon: LayoutDashboardIcon }] },
  { heading: msg`Square`, items: [{ label: msg`Public rooms`, to: '/publicrooms', icon: GlobeIcon }] },
  {
    heading: msg`Plan management`,
    items: [{ label: msg`Subscription`, to: '/planlist', icon: CreditCardIcon }],
  },
  { heading: null, items: [{ label: msg`Bill management`, to: '/bill', icon: ReceiptIcon }] },
  {
    heading: msg`Help documentation`,
    items: [
      { label: msg`Help`, to: '/help', icon: CircleHelpIcon },
      { label: msg`Server state`, to: '/serverstate', icon: ServerIcon },
    ],
  },
  {
    heading: msg`User management`,
    items: [{ label: msg`Personal info`, to: '/profile', icon: UserRoundIcon }],
  },
  {
    heading: msg`Administration`,
    adminOnly: true,
    items: [
      { label: msg`User management`, to: '/admin/users', icon: UsersIcon },
      { label: msg`Running rooms`, to: '/admin/rooms', icon: MonitorPlayIcon },
      { label: msg`Reports`, to: '/admin/reports', icon: FlagIcon },
      { label: msg`Plans`, to: '/admin/plans', icon: PackageIcon },
      { label: msg`Payments`, to: '/admin/payments', icon: WalletCardsIcon },
      { label: msg`Audit log`, to: '/admin/audit', icon: ScrollTextIcon },
    ],
  },
];

/** The sections this user sees: the administration section only for administrators. */
export function visibleSections(role: string | undefined): TMenuSection[] {
  return menuModel.filter((section) => !section.adminOnly || role === 'admin');
}

/** The entry matching the current path: exact or a parent of it (/bill for /bill/pay). */
export function activeItem(pathname: string): TMenuItem['to'] | null {
  for (const section of menuModel) {
    for (const item of section.items) {
      if (pathname === item.to || pathname.startsWith(`${item.to}/`)) return item.to;
    }
  }
  return null;
}
