import { Migration } from '@mikro-orm/migrations';

/**
 * Stops the migration, naming the rows, when stored data already breaks the rule an index is about
 * to enforce: the operator decides which rows go, the migration deletes nothing. `offenders`
 * selects one line of text per group of rows that break it.
 */
function refuseExisting(rule: string, offenders: string): string {
  return `do $$
declare found text;
begin
  select string_agg(line, '; ') into found from (${offenders}) as offending(line);
  if found is not null then
    raise exception '${rule}: %', found using hint = 'Change or delete all but one of each, then migrate again.';
  end if;
end $$;`;
}

export class Migration20261123102455 extends Migration {

  override name = 'Migration20261123102455';

  override up(): void | Promise<void> {
    this.addSql(refuseExisting('More than one virtual MPO (channel pseudo, provider virtual) in an account', `
      select format('account %s: MPOs %s', account_id, string_agg(id::text, ', ' order by created_at, id)) from mpos
       where channel = 'pseudo' and provider = 'virtual' group by account_id having count(*) > 1`));
    this.addSql(`create unique index "mpos_one_virtual_per_account" on "mpos" ("account_id") where channel = 'pseudo' and provider = 'virtual';`);

    this.addSql(refuseExisting('More than one grid meter on a site', `
      select format('site %s: meters %s', site_id, string_agg(id::text, ', ' order by created_at, id)) from meters
       where grid group by account_id, site_id having count(*) > 1`));
    this.addSql(`create unique index "meters_one_grid_per_site" on "meters" ("account_id", "site_id") where grid;`);

    this.addSql(refuseExisting('Tax rates of one name in force on the same day', `
      select format('"%s": tax rates %s and %s', a.name, a.id, b.id) from tax_rates a
        join tax_rates b on b.account_id = a.account_id and b.name = a.name and b.id > a.id
       where daterange(a.valid_from, a.valid_until) && daterange(b.valid_from, b.valid_until)`));
    this.addSql(`alter table "tax_rates" add constraint "tax_rates_no_overlap" EXCLUDE USING gist (account_id WITH =, name WITH =, daterange(valid_from, valid_until) WITH &&);`);

    this.addSql(refuseExisting('More than one default template of a kind in an account', `
      select format('account %s, %s: templates %s', account_id, kind, string_agg(id::text, ', ' order by created_at, id)) from templates
       where is_default group by account_id, kind having count(*) > 1`));
    this.addSql(`create unique index "templates_one_default_per_kind" on "templates" ("account_id", "kind") where is_default;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "meters_one_grid_per_site";`);

    this.addSql(`drop index "mpos_one_virtual_per_account";`);

    this.addSql(`alter table "tax_rates" drop constraint "tax_rates_no_overlap";`);

    this.addSql(`drop index "templates_one_default_per_kind";`);
  }

}
