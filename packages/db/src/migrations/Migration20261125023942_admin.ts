import { Migration } from '@mikro-orm/migrations';

/**
 * The admin area: the audit log (append-only, enforced by a trigger: only the actor link may still change, when
 * the account is deleted), one-time sign-in links, impersonated sessions, report resolutions, moderation's hiding
 * from the square and refunds.
 */
export class Migration20261125023942_admin extends Migration {
  override name = 'Migration20261125023942_admin';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "audit_entries" ("id" uuid not null, "actor_id" uuid null, "actor_label" varchar(254) not null, "action" varchar(64) not null, "target_type" varchar(16) not null, "target_id" varchar(64) not null, "target_label" varchar(254) not null default '', "before" jsonb null, "after" jsonb null, "reason" varchar(500) null, "ip" varchar(64) null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "audit_entries_actor_id_index" on "audit_entries" ("actor_id");`);
    this.addSql(`create index "audit_entries_action_index" on "audit_entries" ("action");`);
    this.addSql(`create index "audit_entries_target_id_index" on "audit_entries" ("target_id");`);
    this.addSql(`create index "audit_entries_created_at_index" on "audit_entries" ("created_at");`);

    this.addSql(
      `create table "admin_login_tokens" ("id" uuid not null, "token_hash" varchar(64) not null, "user_id" uuid not null, "admin_id" uuid not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "admin_login_tokens" add constraint "admin_login_tokens_token_hash_unique" unique ("token_hash");`,
    );

    this.addSql(`alter table "sessions" add "impersonator_id" uuid null;`);
    this.addSql(
      `alter table "sessions" add constraint "sessions_impersonator_id_foreign" foreign key ("impersonator_id") references "users" ("id") on delete cascade;`,
    );

    this.addSql(`alter table "rooms" add "hidden_from_square" boolean not null default false;`);

    this.addSql(
      `alter table "room_reports" add "resolved_at" timestamptz null, add "resolution" varchar(16) null, add "resolved_by_id" uuid null;`,
    );
    this.addSql(
      `alter table "room_reports" add constraint "room_reports_resolved_by_id_foreign" foreign key ("resolved_by_id") references "users" ("id") on delete set null;`,
    );

    this.addSql(`alter table "payments" add "refunded_at" timestamptz null;`);

    this.addSql(
      `alter table "audit_entries" add constraint "audit_entries_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(`create or replace function "audit_entries_append_only_fn"() returns trigger as $$ begin if tg_op = 'UPDATE' and (to_jsonb(new) - 'actor_id') = (to_jsonb(old) - 'actor_id') then
    return new;   end if;   raise exception 'audit entries are append-only'; end; $$ language plpgsql;`);
    this.addSql(
      `create trigger "append_only" BEFORE UPDATE OR DELETE on "audit_entries" for each ROW execute function "audit_entries_append_only_fn"();`,
    );

    this.addSql(
      `alter table "admin_login_tokens" add constraint "admin_login_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "admin_login_tokens" add constraint "admin_login_tokens_admin_id_foreign" foreign key ("admin_id") references "users" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "append_only" on "audit_entries";`);
    this.addSql(`drop function if exists "audit_entries_append_only_fn"();`);
    this.addSql(`drop table if exists "audit_entries" cascade;`);
    this.addSql(`drop table if exists "admin_login_tokens" cascade;`);

    this.addSql(`alter table "room_reports" drop constraint "room_reports_resolved_by_id_foreign";`);

    this.addSql(`alter table "sessions" drop constraint "sessions_impersonator_id_foreign";`);

    this.addSql(`alter table "payments" drop column "refunded_at";`);

    this.addSql(
      `alter table "room_reports" drop column "resolved_at", drop column "resolution", drop column "resolved_by_id";`,
    );

    this.addSql(`alter table "rooms" drop column "hidden_from_square";`);

    this.addSql(`alter table "sessions" drop column "impersonator_id";`);
  }
}
