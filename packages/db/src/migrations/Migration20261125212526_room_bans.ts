import { Migration } from '@mikro-orm/migrations';

/**
 * Bans move from the room hub's memory into `room_bans`, so every process refuses a banned person's ticket; the
 * `room_bans_end` trigger on rooms deletes a room's bans when it stops (or comes up again after stopping).
 */
export class Migration20261125212526_room_bans extends Migration {
  override name = 'Migration20261125212526_room_bans';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "room_bans" ("id" uuid not null, "room_id" uuid not null, "user_id" uuid null, "guest_id" varchar(64) null, "ip" varchar(64) null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "room_bans_room_id_index" on "room_bans" ("room_id");`);

    this.addSql(`create or replace function "rooms_room_bans_end_fn"() returns trigger as $$ begin if (new.state in ('stopped', 'crashed')) is distinct from (old.state in ('stopped', 'crashed')) then
    delete from room_bans where room_id = new.id;   end if;   return null; end; $$ language plpgsql;`);
    this.addSql(
      `create trigger "room_bans_end" AFTER UPDATE on "rooms" for each ROW execute function "rooms_room_bans_end_fn"();`,
    );

    this.addSql(
      `alter table "room_bans" add constraint "room_bans_room_id_foreign" foreign key ("room_id") references "rooms" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "room_bans" cascade;`);

    this.addSql(`drop trigger if exists "room_bans_end" on "rooms";`);
    this.addSql(`drop function if exists "rooms_room_bans_end_fn"();`);
  }
}
