import { Migration } from '@mikro-orm/migrations';

/**
 * The sign-in before the latest one, which the profile shows as the last login. For accounts signed in before, it
 * is found in their sessions: the newest of their own (not an administrator's sign-in link) older than the latest.
 */
export class Migration20261127231847_user_previous_login extends Migration {
  override name = 'Migration20261127231847_user_previous_login';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "users" add column "previous_login_ip" varchar(64) null, add column "previous_login_at" timestamptz null;`,
    );
    this.addSql(
      `update "users" u set "previous_login_at" = earlier."created_at", "previous_login_ip" = earlier."ip" from (select distinct on (s."user_id") s."user_id", s."created_at", s."ip" from "sessions" s join "users" owner on owner."id" = s."user_id" where s."impersonator_id" is null and s."created_at" < owner."last_login_at" order by s."user_id", s."created_at" desc) earlier where earlier."user_id" = u."id";`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "users" drop column "previous_login_ip", drop column "previous_login_at";`);
  }
}
