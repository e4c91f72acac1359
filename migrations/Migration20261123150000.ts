import { Migration } from '@mikro-orm/migrations';

/**
 * What a business customer's e-invoice needs, all additive: its VAT identification number (BT-48),
 * the buyer reference (BT-10, e.g. a Leitweg-ID) and the format it receives invoices in (existing
 * customers get `pdf`).
 */
export class Migration20261123150000 extends Migration {

  override name = 'Migration20261123150000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "customers" add "vat_id" varchar(20) null, add "buyer_reference" varchar(200) null, add "invoice_format" varchar(16) not null default 'pdf';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "customers" drop column "vat_id", drop column "buyer_reference", drop column "invoice_format";`);
  }

}
