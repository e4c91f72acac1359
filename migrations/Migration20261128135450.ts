import { Migration } from '@mikro-orm/migrations';

/**
 * A payment that makes a failed one's amount due again names it (the first of a chain of returns).
 * An invoice that deducted a prepayment has counted its amount: when the bank returns it, the
 * replacement collects the amount again and no later invoice may deduct it a second time. Existing
 * prepayments beside a failed one of the same contract and due date are such replacements (one
 * prepayment per due date holds it; a failed one leaves it to the next) and name the earliest.
 */
export class Migration20261128135450 extends Migration {

  override name = 'Migration20261128135450';

  override up(): void | Promise<void> {
    this.addSql(`alter table "payments" add "replaces_payment_id" uuid null;`);
    this.addSql(`update "payments" r set "replaces_payment_id" = f."id"
      from (select distinct on ("account_id", "contract_id", "due_date") "account_id", "contract_id", "due_date", "id", "created_at"
              from "payments" where "type" = 'prepayment' and "state" = 'failed'
             order by "account_id", "contract_id", "due_date", "created_at", "id") f
     where r."account_id" = f."account_id" and r."contract_id" = f."contract_id" and r."due_date" = f."due_date"
       and r."type" = 'prepayment' and r."id" <> f."id" and r."created_at" >= f."created_at";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payments" drop column "replaces_payment_id";`);
  }

}
