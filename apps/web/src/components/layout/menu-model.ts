// The sidebar's entries (spec §2), grouped under section headings; labels come from the translation table.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { LucideIcon } from 'lucide-react';
import {
  CircleHelpIcon,
  CreditCardIcon,
  GlobeIcon,
  LayoutDashboardIcon,
  ReceiptIcon,
  UserRoundIcon,
} from 'lucide-react';

export interface TMenuItem {
  label: MessageDescriptor;
  to: '/dashboard' | '/publicrooms' | '/planlist' | '/bill' | '/help' | '/profile';
  icon: LucideIcon;
  visible?: boolean;
  disabled?: boolean;
}

export interface TMenuSection {
  heading: MessageDescriptor | null;
  items: TMenuItem[];
}

export const menuModel: TMenuSection[] = [
  { heading: msg`Home`, items: [{ label: msg`Dashboard`, to: '/dashboard', icon: LayoutDashboardIcon }] },
  { heading: msg`Square`, items: [{ label: msg`Public rooms`, to: '/publicrooms', icon: GlobeIcon }] },
  {
    heading: msg`Plan management`,
    items: [{ label: msg`Subscription`, to: '/planlist', icon: CreditCardIcon }],
  },
  { heading: null, items: [{ label: msg`Bill management`, to: '/bill', icon: ReceiptIcon }] },
  { heading: msg`Help documentation`, items: [{ label: msg`Help`, to: '/help', icon: CircleHelpIcon }] },
  {
    heading: msg`User management`,
    items: [{ label: msg`Personal info`, to: '/profile', icon: UserRoundIcon }],
  },
];

/** The entry matching the current path: exact or a parent of it (/bill for /bill/pay). */
export function activeItem(pathname: string): TMenuItem['to'] | null {
  for (const section of menuModel) {
    for (const item of section.items) {
      if (pathname === item.to || pathname.startsWith(`${item.to}/`)) return item.to;
    }
  }
  return null;
}
