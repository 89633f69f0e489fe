import { toJsonSafe } from '../../json-safe';

export interface QueryCaps {
  /** Stop after this many rows. */
  maxRows: number;
  /** Stop before the rows' JSON passes this many bytes. */
  maxBytes: number;
}

export interface SqlQueryResult {
  columns: string[];
  rows: Record<string, unknown>[];
  rowCount: number;
  /** Set when rows were left out: which cap stopped the read. */
  truncated?: 'max_rows' | 'max_bytes';
}

/**
 * Collects rows under the caps. `add` returns false once the result is full, so the caller stops
 * reading; rows are JSON-safe (bigint → string, Date → ISO, binary → a placeholder).
 */
export class RowCollector {
  private readonly rows: Record<string, unknown>[] = [];
  private bytes = 2;
  private truncated: SqlQueryResult['truncated'];

  constructor(
    private readonly caps: QueryCaps,
    private columns: string[] = [],
  ) {}

  setColumns(columns: string[]): void {
    this.columns = columns;
  }

  /** Adds one row; false when it did not fit (the result is then marked truncated). */
  add(row: Record<string, unknown>): boolean {
    if (this.truncated) return false;
    if (this.rows.length >= this.caps.maxRows) {
      this.truncated = 'max_rows';
      return false;
    }
    const safe = toJsonSafe(row) as Record<string, unknown>;
    const size = Buffer.byteLength(JSON.stringify(safe)) + 1;
    if (this.bytes + size > this.caps.maxBytes) {
      this.truncated = 'max_bytes';
      return false;
    }
    this.bytes += size;
    this.rows.push(safe);
    return true;
  }

  get full(): boolean {
    return this.truncated !== undefined;
  }

  result(): SqlQueryResult {
    return {
      columns: this.columns,
      rows: this.rows,
      rowCount: this.rows.length,
      ...(this.truncated ? { truncated: this.truncated } : {}),
    };
  }
}

/** Checks a cap option: a positive integer no larger than `ceiling`. */
export function positiveCap(name: string, value: number | undefined, fallback: number, ceiling: number): number {
  const cap = value ?? fallback;
  if (!Number.isInteger(cap) || cap <= 0 || cap > ceiling)
    throw new RangeError(`${name} must be an integer from 1 to ${ceiling}; got ${cap}.`);
  return cap;
}
