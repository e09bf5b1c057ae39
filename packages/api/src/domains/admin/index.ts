// The admin area's domain: what administrators and the operator CLI do, each action audited.
export * from './audit';
export * from './impersonated-calls';
export * from './keyset';
export * from './login-links';
export * from './payments';
export * from './plans';
export * from './reports';
export * from './rooms';
export * from './user-detail';
export * from './users';
