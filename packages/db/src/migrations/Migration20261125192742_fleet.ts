import { Migration } from '@mikro-orm/migrations';

/**
 * The room fleet: agents register with their region, address and capacity; each room start is a run on one agent
 * with an epoch and a lease. At most one live run per room and no agent over its capacity are the database's own
 * rules (a partial unique index, a check kept true by a trigger counting each agent's live runs).
 */
export class Migration20261125192742_fleet extends Migration {
  override name = 'Migration20261125192742_fleet';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "room_agents" ("id" uuid not null, "region_id" uuid not null, "address" varchar(255) not null, "capacity" int not null, "version" varchar(64) not null, "state" text not null default 'active', "assigned" int not null default 0, "registered_at" timestamptz not null, "heartbeat_at" timestamptz not null, "last_placed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "room_agents_region_id_state_index" on "room_agents" ("region_id", "state");`);
    this.addSql(`create index "room_agents_address_index" on "room_agents" ("address");`);

    this.addSql(
      `create table "room_runs" ("id" uuid not null, "room_id" uuid not null, "agent_id" uuid not null, "epoch" int not null, "state" text not null default 'starting', "lease_expires_at" timestamptz not null, "created_at" timestamptz not null, "ended_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "room_runs_agent_id_index" on "room_runs" ("agent_id");`);
    this.addSql(
      `create index "room_runs_live_lease_index" on "room_runs" ("lease_expires_at") where state in ('starting', 'running');`,
    );
    this.addSql(
      `alter table "room_runs" add constraint "room_runs_room_id_epoch_unique" unique ("room_id", "epoch");`,
    );
    this.addSql(
      `create unique index "room_runs_live_room_unique" on "room_runs" ("room_id") where state in ('starting', 'running');`,
    );

    this.addSql(
      `alter table "room_agents" add constraint "room_agents_region_id_foreign" foreign key ("region_id") references "regions" ("id");`,
    );
    this.addSql(
      `alter table "room_agents" add constraint "room_agents_capacity_check" check (capacity > 0);`,
    );
    this.addSql(
      `alter table "room_agents" add constraint "room_agents_assigned_check" check (assigned >= 0 and assigned <= capacity);`,
    );
    this.addSql(
      `alter table "room_agents" add constraint "room_agents_state_check" check ("state" in ('active', 'draining', 'lost'));`,
    );

    this.addSql(
      `alter table "room_runs" add constraint "room_runs_room_id_foreign" foreign key ("room_id") references "rooms" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "room_runs" add constraint "room_runs_agent_id_foreign" foreign key ("agent_id") references "room_agents" ("id");`,
    );
    this.addSql(`alter table "room_runs" add constraint "room_runs_epoch_check" check (epoch > 0);`);
    this.addSql(
      `alter table "room_runs" add constraint "room_runs_state_check" check ("state" in ('starting', 'running', 'stopped', 'lost'));`,
    );
    this.addSql(`create or replace function "room_runs_room_runs_assigned_fn"() returns trigger as $$ begin if tg_op <> 'DELETE' and new.state in ('starting', 'running')
      and (tg_op = 'INSERT' or old.state not in ('starting', 'running')) then
    update room_agents set assigned = assigned + 1 where id = new.agent_id;   end if;   if tg_op <> 'INSERT' and old.state in ('starting', 'running')
      and (tg_op = 'DELETE' or new.state not in ('starting', 'running')) then
    update room_agents set assigned = assigned - 1 where id = old.agent_id;   end if;   return null; end; $$ language plpgsql;`);
    this.addSql(
      `create trigger "room_runs_assigned" AFTER INSERT OR UPDATE OR DELETE on "room_runs" for each ROW execute function "room_runs_room_runs_assigned_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "room_runs" drop constraint "room_runs_agent_id_foreign";`);

    this.addSql(`drop table if exists "room_agents" cascade;`);
    this.addSql(`drop trigger if exists "room_runs_assigned" on "room_runs";`);
    this.addSql(`drop function if exists "room_runs_room_runs_assigned_fn"();`);
    this.addSql(`drop table if exists "room_runs" cascade;`);
  }
}
