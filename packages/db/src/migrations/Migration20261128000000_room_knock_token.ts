import { Migration } from '@mikro-orm/migrations';

/**
 * Knocking: the token of a room's knock link, with which anyone may ask to be let in (the owner or a member they
 * trust admits or turns them away). Null while the owner has knocking off, which is every room's start.
 */
export class Migration20261128000000_room_knock_token extends Migration {
  override name = 'Migration20261128000000_room_knock_token';

  override up(): void | Promise<void> {
    this.addSql(`alter table "rooms" add column "knock_token" varchar(64) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "rooms" drop column "knock_token";`);
  }
}
