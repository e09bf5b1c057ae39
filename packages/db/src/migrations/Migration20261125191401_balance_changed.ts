import { Migration } from '@mikro-orm/migrations';

/**
 * Every committed write to the balance ledger is announced on `rooms_balance_changed` with the user's id, so the
 * balances servers keep in memory are evicted in every process, whichever process or tool wrote the entry.
 */
export class Migration20261125191401_balance_changed extends Migration {
  override name = 'Migration20261125191401_balance_changed';

  override up(): void | Promise<void> {
    this.addSql(
      `create or replace function "balance_entries_balance_changed_fn"() returns trigger as $$ begin perform pg_notify('rooms_balance_changed', coalesce(new.user_id, old.user_id)::text);   return null; end; $$ language plpgsql;`,
    );
    this.addSql(
      `create trigger "balance_changed" AFTER INSERT OR UPDATE OR DELETE on "balance_entries" for each ROW execute function "balance_entries_balance_changed_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "balance_changed" on "balance_entries";`);
    this.addSql(`drop function if exists "balance_entries_balance_changed_fn"();`);
  }
}
