import { Migration } from '@mikro-orm/migrations';

export class Migration20261122022000_room_reports extends Migration {
  override name = 'Migration20261122022000_room_reports';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "room_reports" ("id" uuid not null, "room_id" uuid null, "room_name" varchar(32) not null, "reporter_id" uuid null, "reporter_ip" varchar(64) not null, "reason" varchar(500) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "room_reports_room_id_index" on "room_reports" ("room_id");`);
    this.addSql(`create index "room_reports_created_at_index" on "room_reports" ("created_at");`);
    this.addSql(
      `alter table "room_reports" add constraint "room_reports_room_id_foreign" foreign key ("room_id") references "rooms" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "room_reports" add constraint "room_reports_reporter_id_foreign" foreign key ("reporter_id") references "users" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "room_reports" cascade;`);
  }
}
