import { describe, expect, it } from 'vitest';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import type { AgentInputInit, AgentResult } from '../../../src/domain';
import { callStep, llmCalls } from '../../helpers/chain-helpers';
import { modelsByName, scripted } from '../../helpers/sub-agent-helpers';
import { finishWithLastResult } from '../../helpers/sub-agent-scripts';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

/** The tool names the child's first model call offered its model. */
const offeredTools = (child: AgentResult): unknown => llmCalls(child.chain.steps)[0]?.arguments['tools'];

describe('a sub-agent without a tool list inherits its parent’s limits', () => {
  it('a definition without tools gets the parent’s list, not every tool on the worker; one with a list keeps its grant', async () => {
    const { tools } = testTools();
    const names = tools.map((t) => t.name);
    expect(names.length).toBeGreaterThan(2);
    const allowed = names[0]!;
    const lead = createScriptedModel([
      {
        content: [
          useTool('open_agent', { task: 'Look around' }, 'call_open'),
          useTool('named_agent', { task: 'Use everything' }, 'call_named'),
        ],
      },
      { content: finishWithLastResult() },
    ]);
    const child = () => createScriptedModel([{ content: [useTool('finish', { result: 'done' })] }]);
    const models = modelsByName({ lead, open: child(), named: child() });
    const h = await createHarness(env, { tools, models: { scripted: models } });
    const input: AgentInputInit = {
      task: 'Delegate twice',
      agentName: 'lead',
      model: scripted('lead'),
      tools: [allowed, 'open_agent', 'named_agent'],
      agents: {
        open_agent: { description: 'Has no list of its own', model: scripted('open') },
        named_agent: { description: 'Names every tool', model: scripted('named'), tools: names },
      },
    };
    const result = await h.worker.runUntil(async () => (await h.agents.start(input)).result());
    models.verify();
    const childOf = (callId: string) =>
      h.agents.result(callStep(result.chain.steps, callId)!.toolCall.delegatedTo!.workflowId);
    const open = await childOf('call_open');
    const named = await childOf('call_named');
    // The open child may also delegate to the catalogue agents not above it (the guards judge those calls).
    expect(offeredTools(open)).toEqual([allowed, 'named_agent', 'finish', 'give_up']);
    expect(offeredTools(named)).toEqual([...names, 'finish', 'give_up']);
  });
});
