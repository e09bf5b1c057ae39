import { Migration } from '@mikro-orm/migrations';

/**
 * The lost sweep reads only live agents: an index of those alone (by id, which heartbeats never change, so their
 * updates stay in place), so lost agents waiting to be pruned never slow it down; and the pruning (fleet.pruneFleet) finds the lost agents and ended runs of long ago by index.
 */
export class Migration20261127150000_fleet_pruning extends Migration {
  override name = 'Migration20261127150000_fleet_pruning';

  override up(): void | Promise<void> {
    this.addSql(`create index "room_agents_live_index" on "room_agents" ("id") where state <> 'lost';`);
    this.addSql(
      `create index "room_agents_lost_heartbeat_index" on "room_agents" ("heartbeat_at") where state = 'lost';`,
    );
    this.addSql(
      `create index "room_runs_ended_index" on "room_runs" ("ended_at") where state in ('stopped', 'lost');`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "room_runs_ended_index";`);
    this.addSql(`drop index "room_agents_lost_heartbeat_index";`);
    this.addSql(`drop index "room_agents_live_index";`);
  }
}
