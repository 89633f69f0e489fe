import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { createSqliteQueryTool } from '../../../src/tools/builtin/sql';
import { runScripted } from '../../helpers/run-scripted';
import { openSqlite } from '../../helpers/sqlite-file';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
let dir: string;
let file: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-sql-run-'));
  file = path.join(dir, 'shop.db');
  const db = openSqlite(file);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b');");
  db.close();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('sql_query in a run', () => {
  it('runs without approval, shows the query in the chain, and returns a refused write to the model', async () => {
    const { result } = await runScripted(env, {
      tools: [createSqliteQueryTool({ file })],
      input: { task: 'Count the rows', visibilityByTool: { sql_query: { level: 'summary' } } },
      script: [
        { content: [useTool('sql_query', { sql: 'SELECT name FROM t ORDER BY id' })] },
        { content: [useTool('sql_query', { sql: 'DELETE FROM t RETURNING *' })] },
        { content: [say('Two rows: a and b.')] },
      ],
    });
    expect(result).toMatchObject({ success: true, finalAnswer: 'Two rows: a and b.' });
    const calls = result.chain.steps.filter(
      (step) => step.type === 'tool_call' && step.toolCall.toolName === 'sql_query',
    );
    expect(calls.map((step) => (step.type === 'tool_call' ? step.toolCall.arguments : undefined))).toEqual([
      { sql: 'SELECT name FROM t ORDER BY id' },
      { sql: 'DELETE FROM t RETURNING *' },
    ]);
    expect(calls.map((step) => step.visibility)).toEqual([
      { level: 'summary', summary: 'SQL: SELECT name FROM t ORDER BY id' },
      { level: 'summary', summary: 'SQL: DELETE FROM t RETURNING *' },
    ]);
    const ids = calls.map((step) => (step.type === 'tool_call' ? step.toolCall.correlationId : undefined));
    const outcomes = ids.map((id) =>
      result.chain.steps.find((step) => step.type === 'tool_result' && step.toolResult.correlationId === id),
    );
    expect(outcomes.map((step) => (step?.type === 'tool_result' ? step.toolResult.success : undefined))).toEqual([
      true,
      false,
    ]);
    expect(outcomes[1]?.type === 'tool_result' ? outcomes[1].toolResult.error : undefined).toMatch(/read-only/);
    const db = openSqlite(file, { readOnly: true });
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
    db.close();
  }, 120_000);
});
