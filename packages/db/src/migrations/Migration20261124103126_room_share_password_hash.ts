import { Migration } from '@mikro-orm/migrations';

/**
 * Share passwords become argon2id hashes (security review, finding 6): the column grows to hold a hash, and a
 * sealed copy (app secret, AES-GCM) keeps the password readable for its owner. Hashing takes the server's argon2
 * and sealing its secret, neither of which SQL has: rows still in plain text are hashed by the server when it
 * starts (apps/server services/passwords/plain-share-passwords.ts), and are checked as plain text until then.
 */
export class Migration20261124103126_room_share_password_hash extends Migration {
  override name = 'Migration20261124103126_room_share_password_hash';

  override up(): void | Promise<void> {
    this.addSql(`alter table "rooms" add "password_sealed" text null;`);
    this.addSql(
      `alter table "rooms" alter column "password" type varchar(255) using ("password"::varchar(255));`,
    );
  }

  override down(): void | Promise<void> {
    // A hash cannot go back to its password: those rooms lose it and become private (only the owner enters).
    this.addSql(`update "rooms" set "password" = null where length("password") > 32;`);
    this.addSql(`alter table "rooms" drop column "password_sealed";`);
    this.addSql(
      `alter table "rooms" alter column "password" type varchar(32) using ("password"::varchar(32));`,
    );
  }
}
