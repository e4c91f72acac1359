import { Migration } from '@mikro-orm/migrations';

/**
 * A table whose every row refers to another tenant row no longer refers to accounts as well: the
 * row it refers to has the same account_id and refers to its account itself. Each foreign key is
 * checked for every row inserted, with a lookup and a share lock on the account's row.
 */
export class Migration20261129011205 extends Migration {

  override name = 'Migration20261129011205';

  override up(): void | Promise<void> {
    this.addSql(`alter table "payment_methods" drop constraint "payment_methods_account_id_foreign";`);

    this.addSql(`alter table "price_component_groups" drop constraint "price_component_groups_account_id_foreign";`);

    this.addSql(`alter table "meters" drop constraint "meters_account_id_foreign";`);

    this.addSql(`alter table "meter_balancing_settings" drop constraint "meter_balancing_settings_account_id_foreign";`);

    this.addSql(`alter table "measurement_days" drop constraint "measurement_days_account_id_foreign";`);

    this.addSql(`alter table "contracts" drop constraint "contracts_account_id_foreign";`);

    this.addSql(`alter table "prepayment_requests" drop constraint "prepayment_requests_account_id_foreign";`);

    this.addSql(`alter table "prepayment_amounts" drop constraint "prepayment_amounts_account_id_foreign";`);

    this.addSql(`alter table "invoices" drop constraint "invoices_account_id_foreign";`);

    this.addSql(`alter table "payments" drop constraint "payments_account_id_foreign";`);

    this.addSql(`alter table "payment_run_items" drop constraint "payment_run_items_account_id_foreign";`);

    this.addSql(`alter table "outdated_drafts" drop constraint "outdated_drafts_account_id_foreign";`);

    this.addSql(`alter table "line_items" drop constraint "line_items_account_id_foreign";`);

    this.addSql(`alter table "invoice_pdfs" drop constraint "invoice_pdfs_account_id_foreign";`);

    this.addSql(`alter table "invoice_e_invoices" drop constraint "invoice_e_invoices_account_id_foreign";`);

    this.addSql(`alter table "contract_meters" drop constraint "contract_meters_account_id_foreign";`);

    this.addSql(`alter table "bill_run_errors" drop constraint "bill_run_errors_account_id_foreign";`);

    this.addSql(`alter table "balancing_dirty_ranges" drop constraint "balancing_dirty_ranges_account_id_foreign";`);

    this.addSql(`alter table "balancing_days" drop constraint "balancing_days_account_id_foreign";`);

    this.addSql(`alter table "balance_days" drop constraint "balance_days_account_id_foreign";`);

    this.addSql(`alter table "meter_readings" drop constraint "meter_readings_account_id_foreign";`);

    this.addSql(`alter table "price_components" drop constraint "price_components_account_id_foreign";`);

    this.addSql(`alter table "prices" drop constraint "prices_account_id_foreign";`);

    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_account_id_foreign";`);

    this.addSql(`alter table "refresh_tokens" drop constraint "refresh_tokens_account_id_foreign";`);

    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_account_id_foreign";`);

    this.addSql(`alter table "webhook_leases" drop constraint "webhook_leases_account_id_foreign";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "balance_days" add constraint "balance_days_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "balancing_days" add constraint "balancing_days_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "balancing_dirty_ranges" add constraint "balancing_dirty_ranges_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "bill_run_errors" add constraint "bill_run_errors_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "contract_meters" add constraint "contract_meters_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "contracts" add constraint "contracts_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "invoice_e_invoices" add constraint "invoice_e_invoices_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "invoice_pdfs" add constraint "invoice_pdfs_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "invoices" add constraint "invoices_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "line_items" add constraint "line_items_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "measurement_days" add constraint "measurement_days_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "meter_balancing_settings" add constraint "meter_balancing_settings_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "meter_readings" add constraint "meter_readings_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "meters" add constraint "meters_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "outdated_drafts" add constraint "outdated_drafts_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "payment_methods" add constraint "payment_methods_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "payment_run_items" add constraint "payment_run_items_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "payments" add constraint "payments_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "prepayment_amounts" add constraint "prepayment_amounts_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "prepayment_requests" add constraint "prepayment_requests_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "price_component_groups" add constraint "price_component_groups_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "price_components" add constraint "price_components_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "prices" add constraint "prices_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "refresh_tokens" add constraint "refresh_tokens_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);

    this.addSql(`alter table "webhook_leases" add constraint "webhook_leases_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id") on update no action on delete no action;`);
  }

}
