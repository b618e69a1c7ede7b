/**
 * The typed syntax tree of KIP commands (KQL, KML, META). Parameters (`:name`) are substituted by the parser, so a
 * tree holds only JSON values; `param` remembers which parameter a literal came from.
 */

export interface Pos {
  offset: number;
  line: number;
  column: number;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

// ---------------------------------------------------------------- expressions

export interface Literal {
  kind: 'literal';
  value: JsonValue;
  pos: Pos;
  param?: string;
}

/** `?x` or a dot path `?x.attributes.risk_level`. */
export interface VarRef {
  kind: 'var';
  name: string;
  path: string[];
  pos: Pos;
}

export interface ListExpr {
  kind: 'list';
  items: Expr[];
  pos: Pos;
}

export interface UnaryExpr {
  kind: 'unary';
  op: '!';
  arg: Expr;
  pos: Pos;
}

export type BinaryOp = '&&' | '||' | '==' | '!=' | '<' | '>' | '<=' | '>=';

export interface BinaryExpr {
  kind: 'binary';
  op: BinaryOp;
  left: Expr;
  right: Expr;
  pos: Pos;
}

/** FILTER functions (IN, IS_NULL, CONTAINS …) and UPDATE functions (ADD, MUL, CLAMP, COALESCE); name upper-cased. */
export interface CallExpr {
  kind: 'call';
  name: string;
  args: Expr[];
  pos: Pos;
}

export type AggregateFn = 'COUNT' | 'SUM' | 'AVG' | 'MIN' | 'MAX';

export interface AggregateExpr {
  kind: 'aggregate';
  fn: AggregateFn;
  distinct: boolean;
  arg: VarRef;
  pos: Pos;
}

export type Expr = Literal | VarRef | ListExpr | UnaryExpr | BinaryExpr | CallExpr | AggregateExpr;

// ---------------------------------------------------------------- patterns

/** `{id: …}`, `{type: …, name: …}`, `{type: …}` or `{name: …}`. */
export interface ConceptClause {
  kind: 'concept';
  id?: string;
  type?: string;
  name?: string;
  pos: Pos;
}

/** One alternative of a predicate path: `"pred"` (1 hop) or `"pred"{m,n}`; max null = unbounded. */
export interface PredicateStep {
  name: string;
  min: number;
  max: number | null;
}

export type PredicateSpec =
  { kind: 'var'; name: string; pos: Pos } | { kind: 'path'; alternatives: PredicateStep[]; pos: Pos };

export interface VarEndpoint {
  kind: 'var';
  name: string;
  pos: Pos;
}

export type Endpoint = VarEndpoint | ConceptClause | PropClause;

/** `(id: …)` or `(subject, predicate, object)`. */
export interface PropClause {
  kind: 'prop';
  id?: string;
  subject?: Endpoint;
  predicate?: PredicateSpec;
  object?: Endpoint;
  pos: Pos;
}

export interface ConceptPattern {
  kind: 'conceptPattern';
  variable?: string;
  clause: ConceptClause;
  pos: Pos;
}

export interface PropPattern {
  kind: 'propPattern';
  variable?: string;
  clause: PropClause;
  pos: Pos;
}

export interface FilterItem {
  kind: 'filter';
  expr: Expr;
  pos: Pos;
}

export interface BlockItem {
  kind: 'optional' | 'not' | 'union';
  items: WhereItem[];
  pos: Pos;
}

export type WhereItem = ConceptPattern | PropPattern | FilterItem | BlockItem;

// ---------------------------------------------------------------- statements

export interface OrderKey {
  expr: Expr;
  direction: 'ASC' | 'DESC';
}

export interface FindStatement {
  kind: 'find';
  projections: Expr[];
  where: WhereItem[];
  orderBy: OrderKey[];
  limit?: number;
  cursor?: string;
  pos: Pos;
}

/** A SET PROPOSITIONS item: `("pred", target) [WITH METADATA {…}]`. */
export interface SetProposition {
  predicate: string;
  target: Endpoint;
  metadata?: JsonObject;
  pos: Pos;
}

export interface UpsertConcept {
  kind: 'concept';
  handle?: string;
  identity: ConceptClause;
  expectVersion?: number;
  attributes?: JsonObject;
  propositions: SetProposition[];
  metadata?: JsonObject;
  pos: Pos;
}

export interface UpsertProposition {
  kind: 'proposition';
  handle?: string;
  identity: PropClause;
  expectVersion?: number;
  attributes?: JsonObject;
  metadata?: JsonObject;
  pos: Pos;
}

export interface UpsertStatement {
  kind: 'upsert';
  items: (UpsertConcept | UpsertProposition)[];
  metadata?: JsonObject;
  pos: Pos;
}

export interface UpdateStatement {
  kind: 'update';
  target: string;
  attributes?: Record<string, Expr>;
  metadata?: Record<string, Expr>;
  where: WhereItem[];
  limit?: number;
  pos: Pos;
}

export interface MergeStatement {
  kind: 'merge';
  source: string;
  target: string;
  where: WhereItem[];
  pos: Pos;
}

export interface DeleteStatement {
  kind: 'delete';
  what: 'attributes' | 'metadata' | 'propositions' | 'concept';
  keys: string[];
  target: string;
  where: WhereItem[];
  pos: Pos;
}

export type DescribeWhat =
  'primer' | 'domains' | 'concept_types' | 'concept_type' | 'proposition_types' | 'proposition_type';

export interface DescribeStatement {
  kind: 'describe';
  what: DescribeWhat;
  name?: string;
  limit?: number;
  cursor?: string;
  pos: Pos;
}

export type SearchMode = 'keyword' | 'semantic' | 'hybrid';

export interface SearchStatement {
  kind: 'search';
  target: 'concept' | 'proposition';
  term: string;
  type?: string;
  mode?: SearchMode;
  threshold?: number;
  limit?: number;
  pos: Pos;
}

export interface ExportStatement {
  kind: 'export';
  target: string;
  where: WhereItem[];
  limit?: number;
  pos: Pos;
}

export type KmlStatement = UpsertStatement | UpdateStatement | MergeStatement | DeleteStatement;
export type Statement = FindStatement | KmlStatement | DescribeStatement | SearchStatement | ExportStatement;

export const KML_KINDS: ReadonlySet<Statement['kind']> = new Set(['upsert', 'update', 'merge', 'delete']);

export function isKml(statement: Statement): statement is KmlStatement {
  return KML_KINDS.has(statement.kind);
}
