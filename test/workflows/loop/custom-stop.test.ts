import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import type { AgentInputInit, AgentResult } from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { PROJECT_ROOT } from '../../helpers/cli-process';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
let bundlePath: string;
beforeAll(async () => {
  // The README's example workflow, bundled as a user's worker would.
  const { code } = await bundleWorkflowCode({
    workflowsPath: path.join(PROJECT_ROOT, 'examples/workflows/release-agent.ts'),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
  });
  bundlePath = path.join(PROJECT_ROOT, `.thoughtline/tmp/release-agent-${process.pid}.js`);
  fs.writeFileSync(bundlePath, code);
}, 60_000);
afterAll(async () => {
  fs.rmSync(bundlePath, { force: true });
});

describe('a custom workflow around runAgent', () => {
  it('stops with reason `custom` when its predicate holds, after the deploy ran, with a summary', async () => {
    const deployed: string[] = [];
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys a version',
      input: z.object({ version: z.string() }),
      execute: ({ version }) => (deployed.push(version), `deployed ${version}`),
    });
    const check = defineTool({
      name: 'check',
      description: 'Runs the checks',
      input: z.object({}),
      effects: 'none',
      execute: () => 'all green',
    });
    const model = createScriptedModel([
      { content: [say('Checks first.'), useTool('check', {})] },
      { content: [say('Checks are green, so deploy 1.2.3.'), useTool('deploy', { version: '1.2.3' })] },
      { content: [say('Deployed 1.2.3 after green checks.')] },
    ]);
    const h = await createHarness(env, {
      tools: [deploy, check],
      models: { scripted: model },
      workflowBundlePath: bundlePath,
    });
    const input: AgentInputInit = { task: 'Release 1.2.3', model: SCRIPTED_MODEL };
    const result = await h.worker.runUntil(async () => {
      const handle = await env.client.workflow.start('releaseAgent', {
        taskQueue: h.taskQueue,
        workflowId: `release-${Date.now()}`,
        args: [input],
      });
      return (await handle.result()) as AgentResult;
    });
    model.verify();
    expect(deployed).toEqual(['1.2.3']);
    expect(result).toMatchObject({
      terminationReason: 'custom',
      success: false,
      finalAnswer: 'Deployed 1.2.3 after green checks.',
      iterations: 2,
    });
    // The summary call was told which predicate stopped the run, and could not call tools.
    expect(model.calls[2]!.toolChoice).toBe('none');
    expect(JSON.stringify(model.calls[2]!.messages.at(-1))).toContain(
      'anyOf(hasToolCall(deploy), isIterationCount(5))',
    );
    expect(result.chain.steps.at(-1)).toMatchObject({
      type: 'synthesis',
      synthesis: { conclusion: 'Deployed 1.2.3 after green checks.' },
    });
  });
});
