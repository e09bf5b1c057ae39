// Billing: the plan catalogue, subscriptions, room-time metering, the balance ledger and payments. Procedures,
// jobs and webhooks call these; the rules live nowhere else.
export * from './catalog';
export * from './enforcement';
export * from './jobs';
export * from './ledger';
export * from './money';
export * from './notices';
export * from './payments';
export * from './proration';
export * from './subscriptions';
export * from './usage';
