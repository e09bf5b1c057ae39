import { Migration } from '@mikro-orm/migrations';

/**
 * Every committed change to a room, or to a zone or image a room list names, is announced on
 * `rooms_room_list_changed` (the owner's id, or '*'), so the room lists servers keep in memory are evicted in
 * every process, whoever wrote the change.
 */
export class Migration20261125201111_room_list_changed extends Migration {
  override name = 'Migration20261125201111_room_list_changed';

  override up(): void | Promise<void> {
    this.addSql(
      `create or replace function "regions_room_list_changed_fn"() returns trigger as $$ begin perform pg_notify('rooms_room_list_changed', '*');   return null; end; $$ language plpgsql;`,
    );
    this.addSql(
      `create trigger "room_list_changed" AFTER UPDATE OR DELETE on "regions" for each ROW execute function "regions_room_list_changed_fn"();`,
    );

    this.addSql(
      `create or replace function "system_images_room_list_changed_fn"() returns trigger as $$ begin perform pg_notify('rooms_room_list_changed', '*');   return null; end; $$ language plpgsql;`,
    );
    this.addSql(
      `create trigger "room_list_changed" AFTER UPDATE OR DELETE on "system_images" for each ROW execute function "system_images_room_list_changed_fn"();`,
    );

    this.addSql(
      `create or replace function "rooms_room_list_changed_fn"() returns trigger as $$ begin perform pg_notify('rooms_room_list_changed', coalesce(new.owner_id, old.owner_id)::text);   return null; end; $$ language plpgsql;`,
    );
    this.addSql(
      `create trigger "room_list_changed" AFTER INSERT OR UPDATE OR DELETE on "rooms" for each ROW execute function "rooms_room_list_changed_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "room_list_changed" on "regions";`);
    this.addSql(`drop function if exists "regions_room_list_changed_fn"();`);

    this.addSql(`drop trigger if exists "room_list_changed" on "rooms";`);
    this.addSql(`drop function if exists "rooms_room_list_changed_fn"();`);

    this.addSql(`drop trigger if exists "room_list_changed" on "system_images";`);
    this.addSql(`drop function if exists "system_images_room_list_changed_fn"();`);
  }
}
