import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import { auditReport } from '../../src/audit';
import { HIDDEN_RESULT, HIDDEN_THINKING } from '../../src/audit/model-calls-in-lens';
import { AgentClient } from '../../src/client/agent-client';
import { VisibilityPolicy, type VisibilityPolicyInit } from '../../src/domain/visibility';
import { defineTool } from '../../src/tools/define-tool';
import { scriptedInput } from '../helpers/scripted-input';
import { createHarness, useTestEnv } from '../helpers/temporal-env';

/*
 * Issue 63: the audit export (`thoughtline export`) reads model calls through the auditor's lens,
 * as GET /v1/runs/{id}/model-calls does: a tool result the policy hides is not in the messages the
 * calls sent, thinking it hides (and the model's text, the thought) not in their replies.
 */

const DOSSIER = 'CLASSIFIED-DOSSIER-BRAVO-4410';
const MUSING = 'the export must not carry this musing';
const THOUGHT = 'Reading the dossier before I answer.';
const readDossier = defineTool({
  name: 'read_dossier',
  description: 'Reads the dossier',
  input: z.object({}),
  effects: 'none',
  execute: () => ({ dossier: DOSSIER }),
});

const env = useTestEnv();

/** The harness's connection, reading through `init` as `thoughtline export --policy` does. */
const withPolicy = (agents: AgentClient, init: Omit<VisibilityPolicyInit, 'version'>): AgentClient =>
  new AgentClient({
    client: agents.client,
    taskQueue: agents.taskQueue,
    visibilityPolicy: { policy: VisibilityPolicy.parse({ version: 1, ...init }), path: 'inline' },
  });

describe('the audit export reads model calls through the lens (issue 63)', () => {
  it('leaves out the tool results and thinking the security layer hides, and says when it leaves out calls', async () => {
    const model = createScriptedModel([
      {
        content: [
          { type: 'thinking', thinking: `Thinking: ${MUSING}.`, signature: 'sig-1' },
          say(THOUGHT),
          useTool('read_dossier', {}),
        ],
      },
      { content: [useTool('finish', { result: 'read it' })] },
    ]);
    const h = await createHarness(env, { tools: [readDossier], models: { scripted: model } });
    const { plain, hiding, summarised } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start(scriptedInput('Read the dossier'));
      await handle.result();
      const security = { steps: { thinking: 'hidden' }, tools: { read_dossier: { result: 'hidden' } } } as const;
      return {
        plain: await auditReport(h.agents, handle.workflowId, 'auditor'),
        hiding: await auditReport(withPolicy(h.agents, { security }), handle.workflowId, 'auditor'),
        summarised: await auditReport(
          withPolicy(h.agents, { security: { steps: { model_call: 'summary' } } }),
          handle.workflowId,
          'auditor',
        ),
      };
    });
    model.verify();

    // Without a policy the auditor's export carries every call whole: the negative control.
    expect(JSON.stringify(plain.modelCalls)).toContain(DOSSIER);
    expect(JSON.stringify(plain.modelCalls)).toContain(MUSING);

    // The chain already hides them from the auditor: the model calls agree.
    expect(JSON.stringify(hiding.steps)).not.toContain(DOSSIER);
    expect(hiding.modelCalls).toHaveLength(2);
    const text = JSON.stringify(hiding.modelCalls);
    expect(text).not.toContain(DOSSIER);
    expect(text).not.toContain(MUSING);
    expect(text).not.toContain(THOUGHT);
    const [first, second] = hiding.modelCalls!;
    expect(first!.reply!.content).toEqual([
      { type: 'thinking', thinking: HIDDEN_THINKING, signature: 'sig-1' },
      { type: 'text', text: HIDDEN_THINKING },
      expect.objectContaining({ type: 'tool_use', name: 'read_dossier' }),
    ]);
    const results = second!.request.messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_result'));
    expect(results.map((b) => b.content)).toEqual([HIDDEN_RESULT]);
    expect(hiding.modelCallsUnavailable).toBeUndefined();

    // A policy that shows model calls at summary leaves them out, and the report says so.
    expect(summarised.modelCalls).toEqual([]);
    expect(summarised.modelCallsUnavailable).toMatch(/2 model call\(s\) are left out/);
  });
});
