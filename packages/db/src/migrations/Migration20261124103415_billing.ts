import { Migration } from '@mikro-orm/migrations';

/**
 * Billing: payments and their provider notifications, time quotas and their metering, notices to owners, and the
 * plans' quota and level columns. The shipped Free and Pro rows get their quotas and Pro its VIP level here (the
 * seeders never change a row an operator may have edited); the yearly Pro plan is a seeded row.
 */
export class Migration20261124103415_billing extends Migration {
  override name = 'Migration20261124103415_billing';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "payment_events" ("id" uuid not null, "provider" varchar(16) not null, "event_id" varchar(255) null, "out_trade_no" varchar(64) null, "outcome" text not null, "reason" varchar(255) not null default '', "received_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "payment_events" add constraint "payment_events_provider_event_id_unique" unique ("provider", "event_id");`,
    );

    this.addSql(
      `create table "usage_months" ("id" uuid not null, "user_id" uuid not null, "month" varchar(7) not null, "free_used_seconds" int not null default 0, primary key ("id"));`,
    );
    this.addSql(
      `alter table "usage_months" add constraint "usage_months_user_id_month_unique" unique ("user_id", "month");`,
    );

    this.addSql(
      `create table "room_meters" ("id" uuid not null, "room_id" uuid not null, "metered_until" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "room_meters" add constraint "room_meters_room_id_unique" unique ("room_id");`);

    this.addSql(
      `create table "payments" ("id" uuid not null, "user_id" uuid not null, "out_trade_no" varchar(64) not null, "amount_cents" int not null, "currency" varchar(3) not null default 'usd', "method" varchar(16) not null, "status" text not null default 'unpaid', "payment_url" text null, "transaction_no" varchar(128) null, "provider_ref" varchar(255) null, "created_at" timestamptz not null, "paid_at" timestamptz null, "expires_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_out_trade_no_unique" unique ("out_trade_no");`,
    );
    this.addSql(`create index "payments_user_id_created_at_index" on "payments" ("user_id", "created_at");`);
    this.addSql(`create index "payments_status_expires_at_index" on "payments" ("status", "expires_at");`);

    this.addSql(
      `create table "billing_notices" ("id" uuid not null, "user_id" uuid not null, "kind" text not null, "plan_name" varchar(64) not null default '', "rooms_stopped" int not null default 0, "created_at" timestamptz not null, "read_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "billing_notices_user_id_created_at_index" on "billing_notices" ("user_id", "created_at");`,
    );

    this.addSql(
      `alter table "plans" add "time_quota_minutes" int not null default 0, add "free_time_quota_minutes" int not null default 0, add "level" int not null default 1;`,
    );
    this.addSql(
      `update "plans" set "time_quota_minutes" = 120, "free_time_quota_minutes" = 600 where "code" = 'free';`,
    );
    this.addSql(
      `update "plans" set "time_quota_minutes" = 6000, "free_time_quota_minutes" = 600, "level" = 2, "name" = 'Pro monthly' where "code" = 'pro';`,
    );
    this.addSql(`alter table "plans" add constraint "plans_inventory_check" check (inventory >= 0);`);
    this.addSql(`alter table "plans" add constraint "plans_price_cents_check" check (price_cents >= 0);`);

    this.addSql(
      `alter table "subscriptions" add "time_quota_seconds" int not null default 0, add "price_cents" int not null default 0, add "closed_at" timestamptz null;`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_time_quota_seconds_check" check (time_quota_seconds >= 0);`,
    );

    this.addSql(
      `alter table "payment_events" add constraint "payment_events_outcome_check" check ("outcome" in ('credited', 'duplicate', 'refused', 'ignored'));`,
    );

    this.addSql(
      `alter table "usage_months" add constraint "usage_months_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "room_meters" add constraint "room_meters_room_id_foreign" foreign key ("room_id") references "rooms" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "payments" add constraint "payments_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_amount_cents_check" check (amount_cents > 0);`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_status_check" check ("status" in ('unpaid', 'paid', 'expired', 'unknown'));`,
    );

    this.addSql(
      `alter table "billing_notices" add constraint "billing_notices_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "billing_notices" add constraint "billing_notices_kind_check" check ("kind" in ('quota-exhausted', 'plan-renewed', 'plan-lapsed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "payment_events" cascade;`);
    this.addSql(`drop table if exists "usage_months" cascade;`);
    this.addSql(`drop table if exists "room_meters" cascade;`);
    this.addSql(`drop table if exists "payments" cascade;`);
    this.addSql(`drop table if exists "billing_notices" cascade;`);

    this.addSql(`alter table "plans" drop constraint "plans_inventory_check";`);
    this.addSql(`alter table "plans" drop constraint "plans_price_cents_check";`);
    this.addSql(
      `alter table "plans" drop column "time_quota_minutes", drop column "free_time_quota_minutes", drop column "level";`,
    );

    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_time_quota_seconds_check";`);
    this.addSql(
      `alter table "subscriptions" drop column "time_quota_seconds", drop column "price_cents", drop column "closed_at";`,
    );
  }
}
