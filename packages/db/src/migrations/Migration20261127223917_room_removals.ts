import { Migration } from '@mikro-orm/migrations';

/**
 * A person the owner removes from a room stays out for the room's run (by account and guest browser) unless the
 * owner lets them back in: `room_removals`, read by every process before it issues a ticket, and the
 * `room_removals_end` trigger on rooms, which deletes a room's removals when it stops (or comes up again after
 * stopping), as `room_bans_end` does for bans.
 */
export class Migration20261127223917_room_removals extends Migration {
  override name = 'Migration20261127223917_room_removals';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "room_removals" ("id" uuid not null, "room_id" uuid not null, "nickname" varchar(64) not null, "user_id" uuid null, "guest_ids" text[] not null default '{}', "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "room_removals_room_id_index" on "room_removals" ("room_id");`);

    this.addSql(`create or replace function "rooms_room_removals_end_fn"() returns trigger as $$ begin if (new.state in ('stopped', 'crashed')) is distinct from (old.state in ('stopped', 'crashed')) then
    delete from room_removals where room_id = new.id;
  end if;
  return null; end; $$ language plpgsql;`);
    this.addSql(
      `create trigger "room_removals_end" AFTER UPDATE on "rooms" for each ROW execute function "rooms_room_removals_end_fn"();`,
    );

    this.addSql(
      `alter table "room_removals" add constraint "room_removals_room_id_foreign" foreign key ("room_id") references "rooms" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "room_removals" cascade;`);

    this.addSql(`drop trigger if exists "room_removals_end" on "rooms";`);
    this.addSql(`drop function if exists "rooms_room_removals_end_fn"();`);
  }
}
