import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteQueryTool } from '../../../src/tools/builtin/sql';
import { SQLITE_CHILD_MARKER } from '../../../src/tools/builtin/sql/sqlite-child-source';
import { ToolError } from '../../../src/tools/tool-error';
import { openSqlite } from '../../helpers/sqlite-file';
import { toolContext } from '../../helpers/tool-context';

let dir: string;
let file: string;

/** Query processes still alive, by their marker in `ps`. */
const queryProcesses = (): string[] =>
  execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(SQLITE_CHILD_MARKER) && !line.includes('ps -eo'));

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-sqlite-deadline-'));
  file = path.join(dir, 'db.sqlite');
  const db = openSqlite(file);
  db.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);');
  db.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a SQLite query ends at its deadline (issue 43, item 5)', () => {
  // One row after a hundred million steps: about 15 s inside one native call, no row to stop at.
  const longScan =
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000000) SELECT count(*) AS n FROM c';

  it('a long scan is stopped at the deadline, its process is gone, and the worker thread kept running meanwhile', async () => {
    const tool = createSqliteQueryTool({ file, queryTimeoutMs: 1_000 });
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 20);
    const started = Date.now();
    const error: unknown = await Promise.resolve(tool.execute({ sql: longScan }, toolContext())).catch(
      (caught: unknown) => caught,
    );
    const took = Date.now() - started;
    clearInterval(ticking);
    expect(ToolError.is(error), String(error)).toBe(true);
    expect((error as ToolError).message).toBe('The query ran past its time limit of 1000 ms; its process was stopped.');
    expect((error as ToolError).retryable).toBe(false);
    expect(took).toBeLessThan(10_000);
    // The event loop was free: a query on the thread would have left the timer at 0.
    expect(ticks).toBeGreaterThan(10);
    expect(queryProcesses()).toEqual([]);
  }, 60_000);

  it('a cancelled activity kills the query at once', async () => {
    const tool = createSqliteQueryTool({ file, queryTimeoutMs: 30_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('activity cancelled')), 300);
    const error: unknown = await Promise.resolve(
      tool.execute({ sql: longScan }, { ...toolContext(), signal: controller.signal }),
    ).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('activity cancelled');
    expect(queryProcesses()).toEqual([]);
  }, 60_000);

  it('a quick query still answers, and the deadline option is bounded', async () => {
    const tool = createSqliteQueryTool({ file, queryTimeoutMs: 1_000 });
    expect((await tool.execute({ sql: 'SELECT x FROM t' }, toolContext())).rows).toEqual([{ x: 1 }]);
    expect(() => createSqliteQueryTool({ file, queryTimeoutMs: 300_001 })).toThrow(/queryTimeoutMs/);
  });
});
