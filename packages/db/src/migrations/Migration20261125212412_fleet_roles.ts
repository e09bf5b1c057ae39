import { Migration } from '@mikro-orm/migrations';

/**
 * Single-use keys for every server (captcha pass tokens, and now room-socket tickets spent on any gateway): the
 * captcha's table becomes the general one, its spent tokens kept. Every new run and every run's change of state
 * is announced on `rooms_run_changed`, so the control plane knows what runs where on every agent.
 */
export class Migration20261125212412_fleet_roles extends Migration {
  override name = 'Migration20261125212412_fleet_roles';

  override up(): void | Promise<void> {
    this.addSql(`alter table "used_captcha_tokens" rename to "used_once_keys";`);
    this.addSql(`alter table "used_once_keys" rename column "pass_token" to "key_hash";`);
    this.addSql(
      `alter table "used_once_keys" rename constraint "used_captcha_tokens_pkey" to "used_once_keys_pkey";`,
    );

    this.addSql(`create or replace function "room_runs_run_changed_fn"() returns trigger as $$ begin if tg_op = 'INSERT' or new.state is distinct from old.state then
    perform pg_notify('rooms_run_changed', new.room_id::text || ':' || new.agent_id::text || ':' || new.state);   end if;   return null; end; $$ language plpgsql;`);
    this.addSql(
      `create trigger "run_changed" AFTER INSERT OR UPDATE on "room_runs" for each ROW execute function "room_runs_run_changed_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "run_changed" on "room_runs";`);
    this.addSql(`drop function if exists "room_runs_run_changed_fn"();`);

    this.addSql(
      `alter table "used_once_keys" rename constraint "used_once_keys_pkey" to "used_captcha_tokens_pkey";`,
    );
    this.addSql(`alter table "used_once_keys" rename column "key_hash" to "pass_token";`);
    this.addSql(`alter table "used_once_keys" rename to "used_captcha_tokens";`);
  }
}
