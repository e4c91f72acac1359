import { Migration } from '@mikro-orm/migrations';

/**
 * The account's seller legal profile, printed in the seller block of every invoice: address, VAT id,
 * tax number, commercial register, managing directors, contact, bank account, SEPA creditor id and
 * dispute resolution text. Additive: existing accounts get an empty profile (no managing directors,
 * a contact without any field); the defaults are dropped again so that the schema equals what the
 * entities declare (the application always writes both columns).
 */
export class Migration20261123130000 extends Migration {

  override name = 'Migration20261123130000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "accounts" add "address" jsonb null, add "vat_id" varchar(20) null, add "tax_number" varchar(20) null, add "register_court" varchar(200) null, add "register_number" varchar(100) null, add "managing_directors" jsonb not null default '[]', add "contact" jsonb not null default '{"email":null,"phone":null,"website":null}', add "bank_account" jsonb null, add "sepa_creditor_id" varchar(35) null, add "dispute_resolution_text" varchar(2000) null;`);
    this.addSql(`alter table "accounts" alter column "managing_directors" drop default, alter column "contact" drop default;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "accounts" drop column "address", drop column "vat_id", drop column "tax_number", drop column "register_court", drop column "register_number", drop column "managing_directors", drop column "contact", drop column "bank_account", drop column "sepa_creditor_id", drop column "dispute_resolution_text";`);
  }

}
