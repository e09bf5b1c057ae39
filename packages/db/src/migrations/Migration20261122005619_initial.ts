import { Migration } from '@mikro-orm/migrations';

export class Migration20261122005619_initial extends Migration {
  override name = 'Migration20261122005619_initial';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "email_codes" ("id" uuid not null, "email" varchar(254) not null, "purpose" text not null, "code_hash" varchar(255) not null, "captcha_pass_token_hash" varchar(64) null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "failed_attempts" int not null default 0, primary key ("id"));`,
    );
    this.addSql(
      `create index "email_codes_email_purpose_created_at_index" on "email_codes" ("email", "purpose", "created_at");`,
    );

    this.addSql(
      `create table "outbox_mails" ("id" uuid not null, "recipient" varchar(255) not null, "subject" varchar(255) not null, "text" text not null, "html" text null, "created_at" timestamptz not null, primary key ("id"));`,
    );

    this.addSql(
      `create table "used_captcha_tokens" ("pass_token" varchar(512) not null, "used_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("pass_token"));`,
    );

    this.addSql(
      `create table "users" ("id" uuid not null, "username" varchar(32) not null, "email" varchar(254) not null, "password_hash" varchar(255) not null, "avatar" varchar(255) not null default '', "level" int not null default 1, "role" text not null default 'user', "disabled" boolean not null default false, "last_login_ip" varchar(64) null, "last_login_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(
      `create table "sessions" ("id" uuid not null, "user_id" uuid not null, "token_hash" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "ip" varchar(64) null, "user_agent" varchar(512) null, primary key ("id"));`,
    );
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `create table "balance_entries" ("id" uuid not null, "user_id" uuid not null, "amount_cents" bigint not null, "kind" text not null, "external_key" varchar(255) null, "note" varchar(255) null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "balance_entries" add constraint "balance_entries_external_key_unique" unique ("external_key");`,
    );
    this.addSql(
      `create index "balance_entries_user_id_created_at_index" on "balance_entries" ("user_id", "created_at");`,
    );

    this.addSql(
      `alter table "email_codes" add constraint "email_codes_purpose_check" check ("purpose" in ('register', 'reset'));`,
    );

    this.addSql(`alter table "users" add constraint "users_role_check" check ("role" in ('user', 'admin'));`);

    this.addSql(
      `alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "balance_entries" add constraint "balance_entries_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "balance_entries" add constraint "balance_entries_kind_check" check ("kind" in ('recharge', 'purchase', 'refund', 'adjustment'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "sessions" drop constraint "sessions_user_id_foreign";`);
    this.addSql(`alter table "balance_entries" drop constraint "balance_entries_user_id_foreign";`);

    this.addSql(`drop table if exists "email_codes" cascade;`);
    this.addSql(`drop table if exists "outbox_mails" cascade;`);
    this.addSql(`drop table if exists "used_captcha_tokens" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "sessions" cascade;`);
    this.addSql(`drop table if exists "balance_entries" cascade;`);
  }
}
