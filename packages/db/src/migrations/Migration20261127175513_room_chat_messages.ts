import { Migration } from '@mikro-orm/migrations';

/**
 * A room's chat moves from its hub's memory into `room_chat_messages`, so it outlives a stop, a restart and the
 * server going down, and goes with the room; read by room and order of sending.
 */
export class Migration20261127175513_room_chat_messages extends Migration {
  override name = 'Migration20261127175513_room_chat_messages';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "room_chat_messages" ("seq" bigserial primary key, "room_id" uuid not null, "message_id" uuid not null, "member_id" uuid not null, "nickname" varchar(64) not null, "text" text not null, "author_user_id" uuid null, "author_guest_id" varchar(64) null, "sent_at" timestamptz not null);`,
    );
    this.addSql(
      `create index "room_chat_messages_room_id_seq_index" on "room_chat_messages" ("room_id", "seq");`,
    );

    this.addSql(
      `alter table "room_chat_messages" add constraint "room_chat_messages_room_id_foreign" foreign key ("room_id") references "rooms" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "room_chat_messages" cascade;`);
  }
}
