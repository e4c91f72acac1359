import { Migration } from '@mikro-orm/migrations';

/**
 * Drafts whose inputs changed after they were drafted (their site balanced again over their period,
 * their meters' measurements corrected, their contract, prices or tax rates changed): issuing drafts
 * them again first, so that an invoice never bills what the data has since replaced.
 */
export class Migration20261128181050 extends Migration {

  override name = 'Migration20261128181050';

  override up(): void | Promise<void> {
    this.addSql(`create table "outdated_drafts" ("account_id" uuid not null, "invoice_id" uuid not null, "created_at" timestamptz(3) not null, primary key ("account_id", "invoice_id"));`);

    this.addSql(`alter table "outdated_drafts" add constraint "outdated_drafts_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "outdated_drafts" add constraint "outdated_drafts_account_id_invoice_id_foreign" foreign key ("account_id", "invoice_id") references "invoices" ("account_id", "id") on update no action on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "outdated_drafts" cascade;`);
  }

}
