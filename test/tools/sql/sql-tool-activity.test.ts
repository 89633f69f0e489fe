import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/tools/redact-secrets';
import { createToolActivities } from '../../../src/activities/tool-activities';
import { FailureType, type ToolOutput } from '../../../src/domain';
import { renderSummaryTemplate } from '../../../src/domain/visibility/summary-template';
import { createSqliteQueryTool } from '../../../src/tools/builtin/sql';
import { createToolRegistry } from '../../../src/tools/tool-registry';
import { openSqlite } from '../../helpers/sqlite-file';

let dir: string;
let file: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-sql-activity-'));
  file = path.join(dir, 'shop.db');
  const db = openSqlite(file);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b');");
  db.close();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const registry = () => createToolRegistry([createSqliteQueryTool({ file })]);
const run = (sql: string) => {
  const activities = createToolActivities({ tools: registry(), redact: createRedactor([]), heartbeatEveryMs: 60_000 });
  return new MockActivityEnvironment().run(activities.runTool, {
    toolName: 'sql_query',
    arguments: { sql },
    idempotencyKey: 'wf/1',
    maxResultChars: 10_000,
  }) as Promise<ToolOutput>;
};

describe('sql_query as the worker runs it', () => {
  it('has a spec the workflow can show: database type, read-only, no approval, the query in the summary line', () => {
    const [spec] = registry().specs();
    expect(spec).toMatchObject({ name: 'sql_query', type: 'database', readOnly: true, summaryTemplate: 'SQL: {sql}' });
    expect(spec!.approval).toBeUndefined(); // `never`, the default left out of specs
    expect(spec!.inputSchema).toMatchObject({ type: 'object', required: ['sql'] });
    expect(renderSummaryTemplate(spec!.summaryTemplate!, { sql: 'SELECT name FROM t' }, undefined)).toBe(
      'SQL: SELECT name FROM t',
    );
  });

  it('returns the rows as the observation', async () => {
    const output = await run('SELECT name FROM t ORDER BY id');
    expect(JSON.stringify(output)).toContain('"rows":[{"name":"a"},{"name":"b"}]');
  });

  it('ends a write as a final ToolRefused failure with the database message', async () => {
    const error = await run('DELETE FROM t RETURNING *').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: FailureType.ToolRefused, nonRetryable: true });
    expect((error as Error).message).toMatch(/read-only/);
  });
});
