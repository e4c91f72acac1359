-- The Citus readiness query, vendored unchanged below this line; test/integration/schema.test.ts runs it on the migrated schema.
-- Citus readiness of the tenant schema: every row it returns is a constraint that would stop
-- create_distributed_table(<table>, 'account_id') from distributing co-located tenant tables.
-- Run against a migrated database in the current schema; ready means 0 rows.
with tenant as (
  select c.oid, c.relname, a.attnum as acc
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  join pg_attribute a on a.attrelid = c.oid and a.attname = 'account_id' and not a.attisdropped
  where n.nspname = current_schema() and c.relkind in ('r', 'p')
)
select t.relname as "table", ic.relname as "constraint", 'unique/exclusion without account_id' as problem
from tenant t join pg_index i on i.indrelid = t.oid join pg_class ic on ic.oid = i.indexrelid
where (i.indisunique or i.indisexclusion) and not (t.acc = any (i.indkey::int2[]))
union all
select t.relname, con.conname, 'exclusion constraint: account_id not compared with ='
from tenant t join pg_constraint con on con.conrelid = t.oid and con.contype = 'x'
where t.acc = any (con.conkey)
  and not exists (select 1 from unnest(con.conkey, con.conexclop) k(att, op) join pg_operator o on o.oid = k.op
                  where k.att = t.acc and o.oprname = '=')
union all
select t.relname, con.conname, 'foreign key to ' || r.relname || ' does not pair account_id with account_id'
from tenant t join pg_constraint con on con.conrelid = t.oid and con.contype = 'f' join tenant r on r.oid = con.confrelid
where not exists (select 1 from unnest(con.conkey, con.confkey) k(a, b) where k.a = t.acc and k.b = r.acc)
union all
select t.relname, con.conname, 'FK with ON UPDATE CASCADE/SET NULL/SET DEFAULT or ON DELETE SET NULL/SET DEFAULT'
from tenant t join pg_constraint con on con.conrelid = t.oid and con.contype = 'f'
where con.confupdtype in ('c', 'n', 'd') or con.confdeltype in ('n', 'd')
order by 1, 2;
