import { fingerprintSync, loadModule, parseSync } from 'libpg-query';

/**
 * Checks SQL statements for what distributing the tables by `account_id` (Citus) needs, on the
 * parse tree of PostgreSQL's own parser (libpg-query):
 *
 * - a join between two tenant tables (tables with an `account_id` column, `accounts` included)
 *   constrains both by account_id: `A.account_id = B.account_id`, or both equated to the same
 *   parameter or constant, in the ON clauses or the WHERE clause of that SELECT (or UPDATE …
 *   FROM, DELETE … USING), directly or through a chain of such equalities (`A = $1 and B = $1`;
 *   given the parameters a statement ran with, `A = $1 and B = $2` with $1 and $2 equal too);
 * - a correlated subquery (in WHERE, the select list, or LATERAL) reading a tenant table and
 *   referring to a tenant table of an enclosing query does the same, with the predicates of the
 *   subquery and of the queries around it;
 * - a tenant table locked with FOR UPDATE/SHARE has its account_id equated to a parameter or a
 *   constant (Citus locks rows of one shard only);
 * - RETURNING calls no function that is not immutable (Citus refuses them): a function with any
 *   non-immutable overload in pg_proc, CURRENT_TIMESTAMP and friends, or a cast to a date/time type.
 *
 * Only equalities joined by AND count: one inside OR, NOT or CASE constrains nothing. A derived
 * table (CTE, subquery in FROM) reading a tenant table counts as a tenant table: through the
 * `account_id` column it returns, or through the parameter or constant it pins all its tenant
 * rows to. Known limits: operators and casts to text are not checked in RETURNING; a column
 * reference that is not qualified is resolved through the table columns of the schema (and not
 * at all when a function without a column list could supply it).
 */

export interface Schema {
  /** The columns of each table of the public schema. */
  columns: ReadonlyMap<string, ReadonlySet<string>>;
  /** Names of functions with at least one overload that is not immutable. */
  mutableFunctions: ReadonlySet<string>;
}

export interface Finding {
  kind: 'join' | 'correlated subquery' | 'for update' | 'returning';
  detail: string;
}

export interface Checked {
  /** The statement as PostgreSQL sees it (MikroORM's `?` placeholders as `$1`, `$2`, …). */
  sql: string;
  /** libpg-query's fingerprint: the same for the same statement whatever its parameters and layout. */
  fingerprint: string;
  findings: Finding[];
  /** The tenant tables it reads or writes. */
  tables: string[];
}

const ACCOUNT = 'account_id';
const DATE_TIME_TYPES = new Set(['timestamptz', 'timestamp', 'date', 'time', 'timetz']);
const VALUE_PREFIXES = ['param:', 'value:'];
/** Parameter values longer than this (JSON payloads) are not compared. */
const COMPARED_LENGTH = 200;

/**
 * Which parameters of one run are equal: the same token for equal values (dates, numbers and
 * strings up to a few hundred characters), undefined for payloads. Runs of a statement with the
 * same tokens check alike, and the tokens keep no payload alive.
 */
export function parameterClasses(params: readonly unknown[]): (string | undefined)[] {
  const classes = new Map<string, string>();
  return params.map((param) => {
    const key = scalar(param);
    if (key === null) return undefined;
    if (!classes.has(key)) classes.set(key, `parameter class ${classes.size}`);
    return classes.get(key);
  });
}

/** Loads the parser (WebAssembly) once. */
export function loadParser(): Promise<void> {
  return loadModule();
}

/**
 * MikroORM's placeholders as PostgreSQL's: `?` is a parameter, `??` an identifier, `\?` a question
 * mark (core/platforms/Platform.js formatQuery: the same characters whatever the quoting).
 */
export function toPostgres(sql: string): string {
  if (!sql.includes('?')) return sql;
  let out = '';
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === '\\' && sql[i + 1] === '?') {
      out += '?';
      i++;
    } else if (c === '?' && sql[i + 1] === '?') {
      out += `"identifier_${++n}"`;
      i++;
    } else if (c === '?') {
      out += `$${++n}`;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * Parses one statement (MikroORM's placeholders allowed) and returns what breaks tenancy. With the
 * parameters it ran with, two parameters of the same value count as the same value (MikroORM
 * inlines `em.execute`'s parameters as literals; Citus prunes shards by the bound values).
 */
export function checkStatement(statement: string, schema: Schema, params?: readonly unknown[]): Checked {
  const sql = toPostgres(statement);
  const parsed = parseSync(sql) as { stmts?: { stmt: any }[] };
  const analyzer = new Analyzer(schema, params);
  for (const { stmt } of parsed.stmts ?? []) analyzer.statement(stmt);
  return { sql, fingerprint: fingerprintSync(sql), findings: analyzer.check(), tables: analyzer.tenantTables() };
}

interface Rel {
  id: number;
  /** How the query refers to it: alias, else table name. */
  name: string;
  label: string;
  /** The table, for a table (not a derived one). */
  table: string | null;
  tenant: boolean;
  /** null: not known (a function without column list). */
  columns: ReadonlySet<string> | null;
  /** The scopes of a derived table (one per UNION branch), for the values it pins account_id to. */
  derived: Scope[];
  scope: Scope;
}

class Scope {
  readonly rels: Rel[] = [];
  readonly equalities: [string, string][] = [];
  /** Relations of enclosing queries that this one refers to. */
  readonly outer = new Set<Rel>();
  locked: string[] | null = null;

  constructor(
    readonly parent: Scope | null,
    readonly ctes: ReadonlyMap<string, Scope[]>,
  ) {}
}

/** Union-find over column keys (`<rel id>.<column>`) and values (`param:1`, `value:…`). */
class Equivalence {
  private readonly parent = new Map<string, string>();

  find(key: string): string {
    let root = key;
    while (this.parent.has(root)) root = this.parent.get(root)!;
    return root;
  }

  union(a: string, b: string): void {
    const [x, y] = [this.find(a), this.find(b)];
    if (x !== y) this.parent.set(x, y);
  }

  same(a: string, b: string): boolean {
    return this.find(a) === this.find(b);
  }

  /** The keys equal to `key`. */
  members(key: string): string[] {
    const root = this.find(key);
    return [...new Set([key, ...this.parent.keys(), ...this.parent.values()])].filter((k) => this.find(k) === root);
  }

  /** The values (parameters, constants) equal to `key`. */
  values(key: string): string[] {
    return this.members(key).filter(isValue);
  }
}

/** A parameter's or constant's value as a key; null for what is not compared (payloads, objects). */
function scalar(value: unknown): string | null {
  if (value instanceof Date) return `value:${value.toISOString()}`;
  if (typeof value === 'string') return value.length <= COMPARED_LENGTH ? `value:${value}` : null;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return `value:${String(value)}`;
  return null;
}

const accountKey = (rel: Rel) => `${rel.id}.${ACCOUNT}`;
const isValue = (key: string) => VALUE_PREFIXES.some((prefix) => key.startsWith(prefix));
const names = (list: any[] | undefined): string[] => (list ?? []).map((n) => n.String?.sval).filter((s): s is string => s !== undefined);

class Analyzer {
  private readonly scopes: Scope[] = [];
  /** The select list or RETURNING of each scope, for the columns a derived table has. */
  private readonly targetsOf = new Map<Scope, any[]>();
  private readonly findings: Finding[] = [];
  private readonly rels = new Map<number, Rel>();
  private nextId = 0;

  constructor(
    private readonly schema: Schema,
    private readonly params?: readonly unknown[],
  ) {}

  statement(node: any): void {
    const [kind, body] = Object.entries(node)[0] as [string, any];
    if (['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt'].includes(kind)) this.query(kind, body, null, new Map());
  }

  tenantTables(): string[] {
    return [...new Set([...this.rels.values()].flatMap((r) => (r.tenant && r.table ? [r.table] : [])))].sort();
  }

  /** Every scope's pairs, correlations and locks, once all equalities are known. */
  check(): Finding[] {
    for (const scope of this.scopes) {
      const eq = this.equivalence(scope);
      const tenants = scope.rels.filter((r) => r.tenant);
      for (let i = 0; i < tenants.length; i++) {
        for (let j = i + 1; j < tenants.length; j++) {
          if (!eq.same(accountKey(tenants[i]!), accountKey(tenants[j]!))) this.findings.push({ kind: 'join', detail: `${tenants[i]!.label} with ${tenants[j]!.label}` });
        }
      }
      for (const outer of [...scope.outer].filter((r) => r.tenant)) {
        for (const inner of tenants) {
          if (!eq.same(accountKey(inner), accountKey(outer))) this.findings.push({ kind: 'correlated subquery', detail: `${inner.label} refers to ${outer.label}` });
        }
      }
      if (scope.locked) {
        const locked = tenants.filter((r) => scope.locked!.length === 0 || scope.locked!.includes(r.name));
        for (const rel of locked) {
          if (eq.values(accountKey(rel)).length === 0) this.findings.push({ kind: 'for update', detail: `${rel.label} locked without its account_id equated to a parameter` });
        }
      }
    }
    return this.findings;
  }

  /** The equalities of `scope` and the queries around it, and the values its derived tables pin to. */
  private equivalence(scope: Scope, around = true): Equivalence {
    const eq = new Equivalence();
    for (let s: Scope | null = scope; s; s = around ? s.parent : null) {
      for (const [a, b] of s.equalities) eq.union(a, b);
      for (const rel of s.rels) for (const value of this.pinned(rel)) eq.union(accountKey(rel), value);
    }
    return eq;
  }

  /**
   * What a derived table's tenant rows all have as account_id, by its own predicates: values, and
   * the account_id of relations around it (a LATERAL subquery correlated on account_id).
   */
  private pinned(rel: Rel): string[] {
    const around = (key: string) => {
      const [id, column] = key.split('.');
      const other = this.rels.get(Number(id));
      if (column !== ACCOUNT || !other) return false;
      for (let s: Scope | null = rel.scope; s; s = s.parent) if (other.scope === s) return true;
      return false;
    };
    let common: string[] | null = null;
    for (const scope of rel.derived) {
      const tenants = scope.rels.filter((r) => r.tenant);
      if (tenants.length === 0) continue;
      const eq = this.equivalence(scope, false);
      for (const inner of tenants) {
        const keys = eq.members(accountKey(inner)).filter((key) => isValue(key) || around(key));
        common = common === null ? keys : common.filter((key) => keys.includes(key));
      }
    }
    return common ?? [];
  }

  /** A query (SELECT, or INSERT/UPDATE/DELETE as statement or CTE); returns its scopes (one per UNION branch). */
  private query(kind: string, node: any, parent: Scope | null, ctes: ReadonlyMap<string, Scope[]>): Scope[] {
    const visible = this.withClause(node.withClause, parent, ctes);
    if (kind === 'SelectStmt') return this.select(node, parent, visible);
    const scope = this.newScope(parent, visible);
    const target = this.table(node.relation, scope);
    if (kind === 'InsertStmt') {
      if (node.selectStmt) this.query('SelectStmt', node.selectStmt.SelectStmt, parent, visible);
      const conflict = node.onConflictClause;
      if (conflict) {
        // The row in conflict and `excluded` (the row proposed) are one row, not a join.
        const excluded: Rel = { ...target, id: this.nextId++, name: 'excluded', label: 'excluded', tenant: false };
        scope.rels.push(excluded);
        this.rels.set(excluded.id, excluded);
        this.expressions(conflict.targetList, scope);
        this.where(conflict.whereClause, scope);
      }
    } else {
      for (const item of node.fromClause ?? node.usingClause ?? []) this.fromItem(item, scope);
      this.expressions(node.targetList, scope);
      this.where(node.whereClause, scope);
    }
    this.returning(node.returningClause?.exprs ?? node.returningList, scope);
    return [scope];
  }

  private select(node: any, parent: Scope | null, ctes: ReadonlyMap<string, Scope[]>): Scope[] {
    if (node.op && node.op !== 'SETOP_NONE') {
      return [...this.query('SelectStmt', node.larg, parent, ctes), ...this.query('SelectStmt', node.rarg, parent, ctes)];
    }
    const scope = this.newScope(parent, ctes);
    if (node.targetList) this.targetsOf.set(scope, node.targetList);
    for (const item of node.fromClause ?? []) this.fromItem(item, scope);
    for (const values of node.valuesLists ?? []) this.expressions(values, scope);
    this.where(node.whereClause, scope);
    this.where(node.havingClause, scope);
    for (const list of [node.targetList, node.groupClause, node.sortClause, node.distinctClause]) this.expressions(list, scope);
    for (const locking of node.lockingClause ?? []) {
      scope.locked = [...(scope.locked ?? []), ...(locking.LockingClause.lockedRels ?? []).map((r: any) => r.RangeVar.relname as string)];
    }
    return [scope];
  }

  private withClause(clause: any, parent: Scope | null, ctes: ReadonlyMap<string, Scope[]>): ReadonlyMap<string, Scope[]> {
    if (!clause) return ctes;
    const visible = new Map(ctes);
    for (const { CommonTableExpr: cte } of clause.ctes) {
      const [kind, body] = Object.entries(cte.ctequery)[0] as [string, any];
      visible.set(cte.ctename, this.query(kind, body, parent, visible));
    }
    return visible;
  }

  private newScope(parent: Scope | null, ctes: ReadonlyMap<string, Scope[]>): Scope {
    const scope = new Scope(parent, ctes);
    this.scopes.push(scope);
    return scope;
  }

  private fromItem(item: any, scope: Scope): Rel[] {
    if (item.RangeVar) return [this.table(item.RangeVar, scope)];
    if (item.JoinExpr) {
      const join = item.JoinExpr;
      const left = this.fromItem(join.larg, scope);
      const right = this.fromItem(join.rarg, scope);
      for (const column of names(join.usingClause)) {
        const l = left.find((r) => r.columns?.has(column));
        const r = right.find((r) => r.columns?.has(column));
        if (l && r) scope.equalities.push([`${l.id}.${column}`, `${r.id}.${column}`]);
      }
      this.where(join.quals, scope);
      return [...left, ...right];
    }
    if (item.RangeSubselect) {
      const sub = item.RangeSubselect;
      const branches = this.query('SelectStmt', sub.subquery.SelectStmt, scope, scope.ctes);
      const columns = names(sub.alias?.colnames);
      return [this.addRel(scope, sub.alias?.aliasname ?? '(subquery)', `(subquery) ${sub.alias?.aliasname ?? ''}`.trim(), branches, columns.length > 0 ? new Set(columns) : this.outputColumns(branches[0]!))];
    }
    if (item.RangeFunction) {
      const fn = item.RangeFunction;
      this.expressions(fn.functions, scope);
      const columns = [...names(fn.alias?.colnames), ...(fn.coldeflist ?? []).map((c: any) => c.ColumnDef.colname as string)];
      const name = fn.alias?.aliasname ?? '(function)';
      return [this.addRel(scope, name, `(function) ${name}`, [], columns.length > 0 ? new Set(columns) : null)];
    }
    this.expressions(item, scope);
    return [];
  }

  /** A table or CTE named in FROM (or the target of INSERT/UPDATE/DELETE). */
  private table(range: any, scope: Scope): Rel {
    const name = range.alias?.aliasname ?? range.relname;
    const cte = range.schemaname ? undefined : scope.ctes.get(range.relname);
    if (cte) return this.addRel(scope, name, `${range.relname}${name === range.relname ? '' : ` ${name}`} (CTE)`, cte, this.outputColumns(cte[0]!));
    const columns = !range.schemaname || range.schemaname === 'public' ? this.schema.columns.get(range.relname) : undefined;
    const rel: Rel = {
      id: this.nextId++,
      name,
      label: name === range.relname ? range.relname : `${range.relname} ${name}`,
      table: range.relname,
      tenant: columns?.has(ACCOUNT) ?? false,
      columns: columns ?? null,
      derived: [],
      scope,
    };
    scope.rels.push(rel);
    this.rels.set(rel.id, rel);
    return rel;
  }

  private addRel(scope: Scope, name: string, label: string, derived: Scope[], columns: ReadonlySet<string> | null): Rel {
    const tenant = derived.some((s) => s.rels.some((r) => r.tenant));
    const rel: Rel = { id: this.nextId++, name, label, table: null, tenant, columns, derived, scope };
    scope.rels.push(rel);
    this.rels.set(rel.id, rel);
    return rel;
  }

  /** The column names a query returns (its select list or RETURNING), null when not known. */
  private outputColumns(scope: Scope): ReadonlySet<string> | null {
    const targets: any[] | undefined = this.targetsOf.get(scope);
    if (!targets) return null;
    const columns = new Set<string>();
    for (const { ResTarget: target } of targets) {
      if (target.name) {
        columns.add(target.name);
        continue;
      }
      const fields = target.val?.ColumnRef?.fields as any[] | undefined;
      if (fields?.at(-1)?.A_Star) {
        const qualifier = names(fields.slice(0, -1)).at(-1);
        for (const rel of scope.rels.filter((r) => qualifier === undefined || r.name === qualifier)) {
          if (!rel.columns) return null;
          for (const column of rel.columns) columns.add(column);
        }
      } else if (fields) {
        columns.add(names(fields).at(-1)!);
      } else if (target.val?.FuncCall) {
        columns.add(names(target.val.FuncCall.funcname).at(-1)!);
      }
    }
    return columns;
  }

  private expressions(list: any, scope: Scope): void {
    if (list === undefined || list === null) return;
    if (Array.isArray(list)) {
      for (const item of list) this.expressions(item, scope);
      return;
    }
    if (typeof list !== 'object') return;
    if (list.ColumnRef) {
      const rel = this.resolve(list.ColumnRef.fields, scope)?.rel;
      if (rel && rel.scope !== scope) scope.outer.add(rel);
      return;
    }
    if (list.SubLink) {
      this.expressions(list.SubLink.testexpr, scope);
      this.query('SelectStmt', list.SubLink.subselect.SelectStmt, scope, scope.ctes);
      return;
    }
    for (const kind of ['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt']) {
      if (list[kind]) {
        this.query(kind, list[kind], scope, scope.ctes);
        return;
      }
    }
    for (const value of Object.values(list)) this.expressions(value, scope);
  }

  /** A WHERE, HAVING or ON clause: its AND-ed equalities, then its expressions. */
  private where(clause: any, scope: Scope): void {
    if (!clause) return;
    for (const conjunct of this.conjuncts(clause)) {
      const op = conjunct.A_Expr;
      if (op?.kind === 'AEXPR_OP' && names(op.name).join() === '=') {
        const [left, right] = [this.term(op.lexpr, scope), this.term(op.rexpr, scope)];
        if (left && right) scope.equalities.push([left, right]);
      }
    }
    this.expressions(clause, scope);
  }

  private conjuncts(clause: any): any[] {
    return clause.BoolExpr?.boolop === 'AND_EXPR' ? clause.BoolExpr.args.flatMap((arg: any) => this.conjuncts(arg)) : [clause];
  }

  /** A side of an equality as a key: a column, a parameter or a constant (casts looked through). */
  private term(node: any, scope: Scope): string | null {
    while (node?.TypeCast) node = node.TypeCast.arg;
    if (node?.ColumnRef) {
      const resolved = this.resolve(node.ColumnRef.fields, scope);
      return resolved ? `${resolved.rel.id}.${resolved.column}` : null;
    }
    if (node?.ParamRef) {
      const value = this.params?.[node.ParamRef.number - 1];
      return scalar(value) ?? `param:${node.ParamRef.number}`;
    }
    if (node?.A_Const) {
      const { sval, ival, fval, boolval } = node.A_Const;
      return scalar(sval?.sval ?? (ival ? Number(ival.ival ?? 0) : undefined) ?? (fval ? Number(fval.fval) : undefined) ?? (boolval ? Boolean(boolval.boolval) : undefined));
    }
    return null;
  }

  private resolve(fields: any[], scope: Scope): { rel: Rel; column: string } | null {
    if (fields.at(-1)?.A_Star) return null;
    const path = names(fields);
    const column = path.at(-1)!;
    const qualifier = path.at(-2);
    for (let s: Scope | null = scope; s; s = s.parent) {
      if (qualifier !== undefined) {
        const rel = s.rels.findLast((r) => r.name === qualifier);
        if (rel) return { rel, column };
        continue;
      }
      const known = s.rels.filter((r) => r.columns?.has(column));
      if (known.length === 1) return { rel: known[0]!, column };
      if (known.length > 1 || s.rels.some((r) => r.columns === null)) return null;
    }
    return null;
  }

  private returning(list: any[] | undefined, scope: Scope): void {
    if (!list) return;
    this.targetsOf.set(scope, list);
    this.expressions(list, scope);
    const visit = (node: any): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      if (node.FuncCall) {
        const name = names(node.FuncCall.funcname).at(-1)!;
        if (this.schema.mutableFunctions.has(name)) this.findings.push({ kind: 'returning', detail: `${name}() is not immutable` });
      }
      if (node.SQLValueFunction) this.findings.push({ kind: 'returning', detail: `${node.SQLValueFunction.op} is not immutable` });
      if (node.TypeCast) {
        const type = names(node.TypeCast.typeName.names).at(-1)!;
        if (DATE_TIME_TYPES.has(type)) this.findings.push({ kind: 'returning', detail: `a cast to ${type} is not immutable` });
      }
      if (node.SubLink) return;
      Object.values(node).forEach(visit);
    };
    visit(list);
  }
}
