import { Migration } from '@mikro-orm/migrations';

/**
 * Keep-data profiles in object storage: one row per room naming its committed archive and the epoch of the run that
 * saved it, written only through the epoch fence (apps/server/src/rooms/profiles/profile-records.ts).
 */
export class Migration20261125212404_room_profiles extends Migration {
  override name = 'Migration20261125212404_room_profiles';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "room_profiles" ("id" uuid not null, "room_id" uuid not null, "epoch" int not null, "object_key" varchar(1024) not null, "saved_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "room_profiles" add constraint "room_profiles_room_id_unique" unique ("room_id");`,
    );

    this.addSql(
      `alter table "room_profiles" add constraint "room_profiles_room_id_foreign" foreign key ("room_id") references "rooms" ("id") on delete cascade;`,
    );
    this.addSql(`alter table "room_profiles" add constraint "room_profiles_epoch_check" check (epoch >= 0);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "room_profiles" cascade;`);
  }
}
