import { Migration } from '@mikro-orm/migrations';

/** The restarts read only the lost runs (fleet.lostRuns), every couple of seconds: an index of those alone. */
export class Migration20261125232021_lost_runs_index extends Migration {
  override name = 'Migration20261125232021_lost_runs_index';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "room_runs_lost_index" on "room_runs" ("room_id", "epoch") where state = 'lost';`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "room_runs_lost_index";`);
  }
}
