import { Migration } from '@mikro-orm/migrations';

/**
 * Processes keep in memory who may use a session (users, API tokens, refresh-token families) and
 * the names of the custom attributes, and LISTEN on `ebbs_changes` to forget them: every change to
 * the columns that decide a session (a role, a revocation; not a refresh token being used) or to
 * a definition, by the service or by hand, notifies `<topic>:<account id>` when it commits. Row
 * triggers, since an operator's SQL must take effect at once too; PostgreSQL folds the identical
 * notifications of one transaction into one.
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
    const standing = { users: 'role, account_id', api_tokens: 'revoked_at, user_id, account_id', refresh_tokens: 'revoked_at, account_id' };
    for (const [table, columns] of Object.entries(standing)) {
      this.addSql(`create trigger "${table}_notify_change" after update of ${columns} or delete on "${table}" for each row execute function "ebbs_notify_change"('credentials');`);
    }
    this.addSql(`create trigger "custom_attributes_notify_change" after insert or update of name, entity, account_id or delete on "custom_attributes" for each row execute function "ebbs_notify_change"('custom_attributes');`);
  }

  override down(): void | Promise<void> {
    for (const table of ['users', 'api_tokens', 'refresh_tokens', 'custom_attributes']) this.addSql(`drop trigger "${table}_notify_change" on "${table}";`);
    this.addSql(`drop function "ebbs_notify_change"();`);
  }

}
