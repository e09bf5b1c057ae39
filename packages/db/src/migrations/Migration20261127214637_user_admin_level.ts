import { Migration } from '@mikro-orm/migrations';

/**
 * The level an administrator set is kept beside the level the plan gives, so a purchase, renewal or lapse no longer
 * overwrites it. Levels set before are found in the audit log: the newest `user.setLevel` of each user.
 */
export class Migration20261127214637_user_admin_level extends Migration {
  override name = 'Migration20261127214637_user_admin_level';

  override up(): void | Promise<void> {
    this.addSql(`alter table "users" add column "admin_level" int null;`);
    this.addSql(
      `update "users" u set "admin_level" = latest.level from (select distinct on ("target_id") "target_id", ("after"->>'level')::int as level from "audit_entries" where "action" = 'user.setLevel' and "target_type" = 'user' and jsonb_typeof("after"->'level') = 'number' order by "target_id", "created_at" desc) latest where latest."target_id" = u."id"::text;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "users" drop column "admin_level";`);
  }
}
