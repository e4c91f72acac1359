import { Migration } from '@mikro-orm/migrations';

/**
 * Processes keep the names of the custom attributes in memory (every record shows every defined
 * key) and LISTEN on `ebbs_changes` to forget them: every change to a definition, by the service
 * or by hand, notifies `custom_attributes:<account id>` when it commits. A row trigger, since an
 * operator's SQL must take effect too; PostgreSQL folds the identical notifications of one
 * transaction into one.
 */
export class Migration20261125100000 extends Migration {

  override name = 'Migration20261125100000';

  override up(): void | Promise<void> {
    this.addSql(`create function "ebbs_notify_change"() returns trigger language plpgsql as $$
begin
  perform pg_notify('ebbs_changes', tg_argv[0] || ':' || (case when tg_op = 'DELETE' then old.account_id else new.account_id end)::text);
  if tg_op = 'UPDATE' and old.account_id is distinct from new.account_id then
    perform pg_notify('ebbs_changes', tg_argv[0] || ':' || old.account_id::text);
  end if;
  return null;
end $$;`);
    this.addSql(`create trigger "custom_attributes_notify_change" after insert or update of name, entity, account_id or delete on "custom_attributes" for each row execute function "ebbs_notify_change"('custom_attributes');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "custom_attributes_notify_change" on "custom_attributes";`);
    this.addSql(`drop function "ebbs_notify_change"();`);
  }

}
