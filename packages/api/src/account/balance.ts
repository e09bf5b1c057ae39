// The prepaid balance lives with billing (domains/billing/ledger.ts); the profile reads it from there.
export { balanceCents, committedBalanceCents } from '../domains/billing/ledger';
