import { Migration } from '@mikro-orm/migrations';

/**
 * A failed prepayment stays as history beside the pending prepayment that makes its amount due
 * again, so the one prepayment per contract and due date counts only prepayments that have not
 * failed.
 */
export class Migration20261124100000 extends Migration {

  override name = 'Migration20261124100000';

  override up(): void | Promise<void> {
    this.addSql(`drop index "payments_one_prepayment_per_due_date";`);
    this.addSql(`create unique index "payments_one_prepayment_per_due_date" on "payments" ("account_id", "contract_id", "due_date") where type = 'prepayment' and state <> 'failed';`);
  }

  /** Fails while a contract has a failed prepayment and its replacement on one due date. */
  override down(): void | Promise<void> {
    this.addSql(`drop index "payments_one_prepayment_per_due_date";`);
    this.addSql(`create unique index "payments_one_prepayment_per_due_date" on "payments" ("account_id", "contract_id", "due_date") where type = 'prepayment';`);
  }

}
