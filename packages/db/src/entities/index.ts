import { AdminLoginToken } from './admin-login-token.entity';
import { AuditEntry } from './audit-entry.entity';
import { BalanceEntry } from './balance-entry.entity';
import { BillingNotice } from './billing-notice.entity';
import { EmailCode } from './email-code.entity';
import { OutboxMail } from './outbox-mail.entity';
import { Payment } from './payment.entity';
import { PaymentEvent } from './payment-event.entity';
import { Plan } from './plan.entity';
import { Region } from './region.entity';
import { Room } from './room.entity';
import { RoomAgent } from './room-agent.entity';
import { RoomBan } from './room-ban.entity';
import { RoomChatMessage } from './room-chat-message.entity';
import { RoomMeter } from './room-meter.entity';
import { RoomProfile } from './room-profile.entity';
import { RoomRemoval } from './room-removal.entity';
import { RoomReport } from './room-report.entity';
import { RoomRun } from './room-run.entity';
import { Session } from './session.entity';
import { Subscription } from './subscription.entity';
import { SystemImage } from './system-image.entity';
import { UsageMonth } from './usage-month.entity';
import { UsedOnceKey } from './used-once-key.entity';
import { User } from './user.entity';

export { AdminLoginToken } from './admin-login-token.entity';
export { AuditEntry } from './audit-entry.entity';
export {
  BALANCE_CHANGED_CHANNEL,
  BalanceEntry,
  type BalanceEntryKind,
  balanceEntryKinds,
} from './balance-entry.entity';
export { BillingNotice, type BillingNoticeKind, billingNoticeKinds } from './billing-notice.entity';
export { EmailCode, type EmailCodePurpose, emailCodePurposes } from './email-code.entity';
export { OutboxMail } from './outbox-mail.entity';
export { Payment, type PaymentStatus, paymentStatuses } from './payment.entity';
export { PaymentEvent, type PaymentEventOutcome, paymentEventOutcomes } from './payment-event.entity';
export { Plan } from './plan.entity';
export { Region } from './region.entity';
export { Room, type RoomState, roomStates } from './room.entity';
export { RoomAgent, type RoomAgentState, roomAgentStates } from './room-agent.entity';
export { RoomBan } from './room-ban.entity';
export { RoomChatMessage } from './room-chat-message.entity';
export { EVERY_ROOM_LIST, ROOM_LIST_CHANGED_CHANNEL } from './room-list-changes';
export { RoomMeter } from './room-meter.entity';
export { RoomProfile } from './room-profile.entity';
export { RoomRemoval } from './room-removal.entity';
export { RoomReport } from './room-report.entity';
export { liveRoomRunStates, RoomRun, type RoomRunState, roomRunStates } from './room-run.entity';
export { RUN_CHANGED_CHANNEL } from './room-run-changes';
export { Session } from './session.entity';
export { Subscription } from './subscription.entity';
export { SystemImage, type SystemImageKind, systemImageKinds } from './system-image.entity';
export { UsageMonth } from './usage-month.entity';
export { UsedOnceKey } from './used-once-key.entity';
export { User, type UserRole, userRoles } from './user.entity';

/** Every entity, listed explicitly: the ORM does no folder discovery. */
export const entities = [
  User,
  Session,
  EmailCode,
  UsedOnceKey,
  OutboxMail,
  BalanceEntry,
  Region,
  SystemImage,
  Plan,
  Subscription,
  Room,
  RoomReport,
  Payment,
  PaymentEvent,
  UsageMonth,
  RoomMeter,
  BillingNotice,
  AuditEntry,
  AdminLoginToken,
  RoomAgent,
  RoomRun,
  RoomBan,
  RoomProfile,
  RoomChatMessage,
  RoomRemoval,
] as const;
