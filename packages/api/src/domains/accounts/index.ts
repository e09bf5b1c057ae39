// Accounts: sessions and their cache, e-mail codes, the captcha and rate-limit guards of the sign-in and sign-up
// calls, and the budgets they spend. Procedures and the server's request hooks call these; the rules live nowhere
// else.
export * from './account-changes';
export * from './budgets';
export * from './code-mail';
export * from './email-codes';
export * from './guards';
export * from './passwords';
export * from './session';
export * from './session-cache';
export * from './sign-in';
export * from './tokens';
