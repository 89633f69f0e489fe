import { z } from 'zod';

/** One row of `EXPLAIN <sql>`: an instruction of the bytecode program SQLite compiled the statement to. */
export const SqliteInstruction = z.object({ opcode: z.string(), p1: z.number(), p2: z.number(), p3: z.number() });
export type SqliteInstruction = z.infer<typeof SqliteInstruction>;

const opcodes = (names: string): ReadonlySet<string> => new Set(names.split(/\s+/).filter(Boolean));

/**
 * Opcodes that read the database or only compute (https://www.sqlite.org/opcode.html), gathered
 * from what SELECTs, joins, CTEs, window functions, aggregates, subqueries, full-text and JSON table
 * functions and the reading PRAGMAs compile to on SQLite 3.47 (Node 22.13) and 3.51 (Node 22.23).
 * An allow-list: an opcode a later SQLite adds is refused until it is read and added here. In
 * order: control flow; registers and values; reading through a cursor; reading virtual tables
 * (table-valued functions, full-text search, PRAGMA functions); reading PRAGMAs.
 */
const READ_OPCODES = opcodes(`
  Init Goto Gosub Return BeginSubrtn InitCoroutine EndCoroutine Yield Halt HaltIfNull Once Jump If IfNot IfPos
  IfNotZero DecrJumpZero IfNullRow IsNull NotNull IsType IsTrue ZeroOrNull ElseEq OffsetLimit MustBeInt Noop Explain
  ReleaseReg Abortable

  Integer Int64 Real String8 String Null SoftNull Blob Variable Move Copy SCopy IntCopy ResultRow Concat Add Subtract
  Multiply Divide Remainder CollSeq BitAnd BitOr BitNot ShiftLeft ShiftRight AddImm RealAffinity Cast Affinity
  MakeRecord Eq Ne Lt Le Gt Ge Permutation Compare And Or Not Function PureFunc AggStep AggStep1 AggInverse AggValue
  AggFinal ClrSubtype GetSubtype SetSubtype Filter FilterAdd RowSetAdd RowSetRead RowSetTest

  OpenRead ReopenIdx Close ColumnsUsed CursorHint Column Offset Rowid IdxRowid RowData Count Sequence SequenceTest
  DeferredSeek FinishSeek SeekLT SeekLE SeekGE SeekGT SeekScan SeekHit SeekRowid NotExists NotFound Found NoConflict
  IfNoHope IfNotOpen Rewind Last Next Prev IfEmpty IfSizeBetween IdxLE IdxGT IdxLT IdxGE NullRow SorterCompare
  SorterData SorterNext SorterSort Sort

  VOpen VFilter VColumn VNext VInitIn VCheck

  ReadCookie Pagecount IntegrityCk
`);

/** Opcodes that open a cursor on a scratch b-tree of the statement's own (sorting, DISTINCT, CTEs, windows). */
const SCRATCH_OPENERS = opcodes('OpenEphemeral OpenAutoindex OpenDup SorterOpen OpenPseudo');
/** Opcodes that open a cursor on the database's own tables, or on a virtual table. */
const TABLE_OPENERS = opcodes('OpenRead ReopenIdx OpenWrite VOpen');
/** Writes allowed only through a scratch cursor: a query fills its own sorters and temporary b-trees. */
const SCRATCH_WRITES = opcodes('Insert IdxInsert Delete IdxDelete NewRowid SorterInsert ResetSorter');

/**
 * Whether a compiled statement only reads and returns rows: undefined when it may run, else why it
 * may not (the opcode that refuses it). What SQLite compiled is what runs, so this reads no SQL.
 * Three opcodes are allowed on a condition: `Transaction` when it opens a read transaction (p2 0),
 * `Expire` when it marks this statement alone to be compiled again before its next run (p1 1, p2 1:
 * every PRAGMA compiles to it; a PRAGMA that sets a flag expires all statements, ATTACH this one at
 * once), `TableLock` when it takes a read lock (p3 0, shared-cache mode).
 */
export function reviewSqliteProgram(program: readonly SqliteInstruction[]): string | undefined {
  const tableCursors = new Set(program.filter((op) => TABLE_OPENERS.has(op.opcode)).map((op) => op.p1));
  const scratch = new Set(
    program.filter((op) => SCRATCH_OPENERS.has(op.opcode) && !tableCursors.has(op.p1)).map((op) => op.p1),
  );
  for (const op of program) {
    const allowed =
      READ_OPCODES.has(op.opcode) ||
      SCRATCH_OPENERS.has(op.opcode) ||
      (SCRATCH_WRITES.has(op.opcode) && scratch.has(op.p1)) ||
      (op.opcode === 'Transaction' && op.p2 === 0) ||
      (op.opcode === 'Expire' && op.p1 === 1 && op.p2 === 1) ||
      (op.opcode === 'TableLock' && op.p3 === 0);
    if (!allowed) return `SQLite compiles it to ${op.opcode} (${op.p1}, ${op.p2}, ${op.p3}), which is not a read`;
  }
  if (!program.some((op) => op.opcode === 'ResultRow')) return 'it returns no rows';
  return undefined;
}
