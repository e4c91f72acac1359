import { Migration } from '@mikro-orm/migrations';

/**
 * The e-invoice is generated at issue and stored with the invoice, like its PDF: one CII XML per
 * profile (`xrechnung`, `en16931`), immutable. Invoices issued before keep none (the endpoint writes
 * theirs from current data, as before).
 */
export class Migration20261123160000 extends Migration {

  override name = 'Migration20261123160000';

  override up(): void | Promise<void> {
    this.addSql(`create table "invoice_e_invoices" ("account_id" uuid not null, "invoice_id" uuid not null, "profile" varchar(16) not null, "xml" text not null, "created_at" timestamptz(3) not null, primary key ("account_id", "invoice_id", "profile"));`);
    this.addSql(`alter table "invoice_e_invoices" add constraint "invoice_e_invoices_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "invoice_e_invoices" add constraint "invoice_e_invoices_account_id_invoice_id_foreign" foreign key ("account_id", "invoice_id") references "invoices" ("account_id", "id") on update no action on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "invoice_e_invoices" cascade;`);
  }

}
