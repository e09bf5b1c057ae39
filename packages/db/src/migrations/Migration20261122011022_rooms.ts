import { Migration } from '@mikro-orm/migrations';

export class Migration20261122011022_rooms extends Migration {
  override name = 'Migration20261122011022_rooms';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "plans" ("id" uuid not null, "code" varchar(32) not null, "name" varchar(64) not null, "description" varchar(255) not null default '', "price_cents" int not null default 0, "duration_days" int null, "inventory" int null, "max_rooms" int not null, "max_connections" int not null, "max_width" int not null, "max_height" int not null, "max_frame_rate" int not null, "max_bitrate_kbps" int not null, "region_codes" text[] not null default '{}', "can_configure_auto_close" boolean not null default false, "persistent_storage" boolean not null default false, "is_default" boolean not null default false, "enabled" boolean not null default true, "sort_order" int not null default 0, primary key ("id"));`,
    );
    this.addSql(`alter table "plans" add constraint "plans_code_unique" unique ("code");`);

    this.addSql(
      `create table "regions" ("id" uuid not null, "code" varchar(32) not null, "name" varchar(64) not null, "description" varchar(255) not null default '', "enabled" boolean not null default true, "sort_order" int not null default 0, primary key ("id"));`,
    );
    this.addSql(`alter table "regions" add constraint "regions_code_unique" unique ("code");`);

    this.addSql(
      `create table "system_images" ("id" uuid not null, "code" varchar(32) not null, "name" varchar(64) not null, "description" varchar(255) not null default '', "kind" text not null, "start_url" varchar(2048) null, "enabled" boolean not null default true, "sort_order" int not null default 0, primary key ("id"));`,
    );
    this.addSql(`alter table "system_images" add constraint "system_images_code_unique" unique ("code");`);

    this.addSql(
      `create table "subscriptions" ("id" uuid not null, "user_id" uuid not null, "plan_id" uuid not null, "starts_at" timestamptz not null, "expires_at" timestamptz null, "auto_renew" boolean not null default false, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "subscriptions_user_id_starts_at_index" on "subscriptions" ("user_id", "starts_at");`,
    );

    this.addSql(
      `create table "rooms" ("id" uuid not null, "name" varchar(32) not null, "remark" varchar(200) not null default '', "password" varchar(32) null, "state" text not null default 'stopped', "is_public" boolean not null default false, "region_id" uuid not null, "image_id" uuid not null, "start_url" varchar(2048) null, "max_connections" int not null, "width" int not null, "height" int not null, "video_bitrate_kbps" int not null, "max_frame_rate" int not null, "keep_data" boolean not null default false, "auto_close" boolean not null default true, "auto_close_minutes" int not null default 20, "owner_id" uuid not null, "created_at" timestamptz not null, "last_started_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "rooms_owner_id_index" on "rooms" ("owner_id");`);
    this.addSql(`create unique index "rooms_name_lower_unique" on "rooms" (lower("name"));`);

    this.addSql(
      `alter table "system_images" add constraint "system_images_kind_check" check ("kind" in ('blank', 'video', 'url'));`,
    );

    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_plan_id_foreign" foreign key ("plan_id") references "plans" ("id");`,
    );

    this.addSql(
      `alter table "rooms" add constraint "rooms_region_id_foreign" foreign key ("region_id") references "regions" ("id");`,
    );
    this.addSql(
      `alter table "rooms" add constraint "rooms_image_id_foreign" foreign key ("image_id") references "system_images" ("id");`,
    );
    this.addSql(
      `alter table "rooms" add constraint "rooms_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "rooms" add constraint "rooms_state_check" check ("state" in ('stopped', 'starting', 'running', 'stopping', 'crashed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_plan_id_foreign";`);
    this.addSql(`alter table "rooms" drop constraint "rooms_region_id_foreign";`);
    this.addSql(`alter table "rooms" drop constraint "rooms_image_id_foreign";`);

    this.addSql(`drop table if exists "plans" cascade;`);
    this.addSql(`drop table if exists "regions" cascade;`);
    this.addSql(`drop table if exists "system_images" cascade;`);
    this.addSql(`drop table if exists "subscriptions" cascade;`);
    this.addSql(`drop table if exists "rooms" cascade;`);
  }
}
