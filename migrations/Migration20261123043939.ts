import { Migration } from '@mikro-orm/migrations';

export class Migration20261123043939 extends Migration {

  override name = 'Migration20261123043939';

  override up(): void | Promise<void> {
    this.addSql(`alter table "payments" add constraint "payments_invoice_id_foreign" foreign key ("invoice_id") references "invoices" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payments" drop constraint "payments_invoice_id_foreign";`);
  }

}
