import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTool } from '../../../src/activities/models/scripted-model';
import { auditReport, renderAuditMarkdown, sealAll, verifyReport, allProblems } from '../../../src/audit';
import { ScriptBook, sharedWorker } from '../../helpers/people-helpers';
import { scriptedInput } from '../../helpers/scripted-input';

const book = new ScriptBook();
const shared = sharedWorker(() => [], book.provider);

async function endedRun(label: string): Promise<string> {
  const task = `export scores: ${label} ${randomUUID().slice(0, 8)}`;
  book.script(task, [{ content: [useTool('finish', { result: 'done' })] }]);
  const handle = await shared.h.agents.start(scriptedInput(task));
  await handle.result();
  return handle.workflowId;
}

/** A sealed export as it reads back from its JSON file. */
async function exported(workflowId: string) {
  return JSON.parse(JSON.stringify(sealAll(await auditReport(shared.h.agents, workflowId, 'auditor'))));
}

describe('the audit export carries the scores', () => {
  it('a scored run exports its scores, sealed: they verify, and a changed or dropped score is caught', async () => {
    const run = await endedRun('scored');
    await shared.h.agents.score(run, { name: 'accepted', value: true, comment: 'the user | accepted', by: 'alice' });
    await shared.h.agents.score(run, { name: 'csat', value: 4, source: 'survey', by: 'bob' });
    const report = await exported(run);
    expect(report.scores.map((s: { name: string; value: number }) => [s.name, s.value])).toEqual([
      ['accepted', 1],
      ['csat', 4],
    ]);
    expect(report.integrity.sections.scores).toMatch(/^sha256:/);
    expect(allProblems(verifyReport(report))).toEqual([]);

    const changed = structuredClone(report);
    changed.scores[1].value = 5;
    expect(allProblems(verifyReport(changed))).toEqual(['section "scores" was altered']);
    const { scores: _dropped, ...dropped } = report;
    expect(allProblems(verifyReport(dropped))).toEqual(['section "scores" was removed']);

    const markdown = renderAuditMarkdown(report);
    expect(markdown).toContain('## Scores');
    expect(markdown).toContain('| accepted | 1 | alice |');
    expect(markdown).toContain('the user \\| accepted');
    expect(markdown).toContain('| csat | 4 | bob |');
  });

  it('an unscored run exports no scores section at all, so exports made before scores read and verify alike', async () => {
    const run = await endedRun('unscored');
    const report = await exported(run);
    expect('scores' in report).toBe(false);
    expect('scoresUnavailable' in report).toBe(false);
    expect(Object.keys(report.integrity.sections)).not.toContain('scores');
    expect(allProblems(verifyReport(report))).toEqual([]);
    expect(renderAuditMarkdown(report)).not.toContain('## Scores');
  });
});
