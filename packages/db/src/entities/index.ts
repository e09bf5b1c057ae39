import { BalanceEntry } from './balance-entry.entity';
import { EmailCode } from './email-code.entity';
import { OutboxMail } from './outbox-mail.entity';
import { Session } from './session.entity';
import { UsedCaptchaToken } from './used-captcha-token.entity';
import { User } from './user.entity';

export { BalanceEntry, type BalanceEntryKind, balanceEntryKinds } from './balance-entry.entity';
export { EmailCode, type EmailCodePurpose, emailCodePurposes } from './email-code.entity';
export { OutboxMail } from './outbox-mail.entity';
export { Session } from './session.entity';
export { UsedCaptchaToken } from './used-captcha-token.entity';
export { User, type UserRole, userRoles } from './user.entity';

/** Every entity, listed explicitly: the ORM does no folder discovery. */
export const entities = [User, Session, EmailCode, UsedCaptchaToken, OutboxMail, BalanceEntry] as const;
