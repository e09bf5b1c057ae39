import { Migration } from '@mikro-orm/migrations';

export class Migration20261125203042_agent_report extends Migration {
  override name = 'Migration20261125203042_agent_report';

  override up(): void | Promise<void> {
    this.addSql(`alter table "room_agents" add "report" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "room_agents" drop column "report";`);
  }
}
