import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { billableActions } from '../../src/client/runs/billable-actions';
import {
  ExperimentAttribute,
  ModelAttribute,
  VariantAttribute,
  zeroUsage,
  type AgentResult,
  type ModelReply,
} from '../../src/domain';
import { assignVariant } from '../../src/domain/agents/agent-experiment';
import type { ModelProvider } from '../../src/domain/model/model-provider';
import { ExperimentReport } from '../../src/domain/evaluation/experiment-report';
import { cliEnv, runCli } from '../helpers/cli-process';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';

const env = useTestEnv();

const PLAIN_PROMPT = 'You answer support tickets in one line.';
const WARM_PROMPT = 'You answer support tickets warmly, in one line.';
const experimentName = `tone-${randomUUID().slice(0, 8)}`;

const support = defineAgent({
  id: 'support',
  description: 'Answers support tickets.',
  version: '3.0.0',
  systemPrompt: PLAIN_PROMPT,
  tools: ['lookup'],
  experiment: {
    name: experimentName,
    assignBy: 'caller',
    variants: [
      { name: 'plain', weight: 1 },
      { name: 'warm', weight: 3, systemPrompt: WARM_PROMPT, model: { model: 'scripted-warm' } },
    ],
  },
});
/** The same agent without an experiment: what a run costs when nothing is tested. */
const untested = defineAgent({ ...support, id: 'support-untested', experiment: undefined });

/** Answers by the prompt it is given, so each variant's runs answer (and cost) their own way. */
function variantModel(): ModelProvider & { seen: Array<{ system: string; model: string }> } {
  const seen: Array<{ system: string; model: string }> = [];
  return {
    name: 'scripted',
    seen,
    async complete(request): Promise<ModelReply> {
      seen.push({ system: request.system, model: request.model });
      const warm = request.system.startsWith(WARM_PROMPT);
      const answer = warm ? 'Happy to help: the value is 42.' : 'The value is 42.';
      return {
        content: [say('Answering.'), useTool('finish', { result: answer })],
        stopReason: 'tool_use',
        model: request.model,
        usage: { ...zeroUsage(), inputTokens: warm ? 300 : 100, outputTokens: 20 },
        costUsd: warm ? 0.003 : 0.001,
        durationMs: 0,
      };
    },
  };
}

/** Callers whose variant the hash gives, three of each, found by the same pure function the workflow uses. */
function callersByVariant(): Record<'plain' | 'warm', string[]> {
  const out: Record<string, string[]> = { plain: [], warm: [] };
  for (let i = 0; out.plain!.length < 3 || out.warm!.length < 3; i++) {
    const caller = `customer-${i}`;
    const list = out[assignVariant(support.experiment!, caller).name]!;
    if (list.length < 3) list.push(caller);
  }
  return out as Record<'plain' | 'warm', string[]>;
}

describe('a live experiment of two variants', () => {
  it('assigns runs by caller, records the variant on the run and as search attributes, and eval report credits late scores to each variant', async () => {
    const model = variantModel();
    const h = await createHarness(env, {
      tools: testTools().tools,
      models: { scripted: model },
      agents: [support, untested],
    });
    const callers = callersByVariant();
    const cliRuns = await h.worker.runUntil(async () => {
      const start = (agent: string, caller?: string) =>
        h.agents.start({
          task: 'What is the value?',
          agent,
          model: SCRIPTED_MODEL,
          ...(caller ? { caller: { id: caller, roles: [] } } : {}),
        });
      // Three callers per variant, the first of each twice (same caller, same variant), and one run with no caller.
      const planned = [
        ...callers.plain.map((c) => ({ caller: c, expected: 'plain' })),
        ...callers.warm.map((c) => ({ caller: c, expected: 'warm' })),
        { caller: callers.plain[0], expected: 'plain' },
        { caller: callers.warm[0], expected: 'warm' },
      ];
      const handles = await Promise.all(planned.map((p) => start('support', p.caller)));
      const anonymous = await start('support');
      const results = (await Promise.all([...handles, anonymous].map((hd) => hd.result()))) as AgentResult[];

      // Recorded on the result (and the chain), by the experiment's key.
      planned.forEach((p, i) => {
        expect(results[i]!.agent).toEqual({
          id: 'support',
          version: '3.0.0',
          source: 'worker',
          experiment: { name: experimentName, variant: p.expected, by: 'caller' },
        });
        expect(results[i]!.chain.agent).toEqual(results[i]!.agent);
        expect(results[i]!.finalAnswer).toBe(
          p.expected === 'warm' ? 'Happy to help: the value is 42.' : 'The value is 42.',
        );
      });
      // No caller: assigned by its workflow id, by the same hash.
      const fallback = assignVariant(support.experiment!, anonymous.workflowId).name;
      expect(results.at(-1)!.agent?.experiment).toEqual({ name: experimentName, variant: fallback, by: 'run' });
      // The variant's prompt and model reached the model; the other variant's never did.
      expect(model.seen.filter((s) => s.system.startsWith(WARM_PROMPT)).every((s) => s.model === 'scripted-warm')).toBe(
        true,
      );
      expect(
        model.seen.filter((s) => s.system.startsWith(PLAIN_PROMPT)).every((s) => s.model === 'scripted-model'),
      ).toBe(true);
      const warmCalls = planned.filter((p) => p.expected === 'warm').length + (fallback === 'warm' ? 1 : 0);
      expect(model.seen.filter((s) => s.system.startsWith(WARM_PROMPT))).toHaveLength(warmCalls);

      // On the run as search attributes, queryable per variant.
      const warmRun = await h.agents.getHandle(handles[3]!.workflowId).describe();
      expect(warmRun.typedSearchAttributes.get(ExperimentAttribute)).toBe(experimentName);
      expect(warmRun.typedSearchAttributes.get(VariantAttribute)).toBe('warm');
      expect(warmRun.typedSearchAttributes.get(ModelAttribute)).toBe('scripted-warm');
      const all = [...handles, anonymous].map((hd) => hd.workflowId);
      const query = `${ExperimentAttribute.name} = '${experimentName}' AND ${VariantAttribute.name} = 'warm'`;
      const expectedWarm = all.filter((_, i) => (i < planned.length ? planned[i]!.expected : fallback) === 'warm');
      let listedWarm: string[] = [];
      for (let attempt = 0; attempt < 100 && listedWarm.length < expectedWarm.length; attempt++) {
        listedWarm = [];
        for await (const run of env.client.workflow.list({ query })) listedWarm.push(run.workflowId);
        if (listedWarm.length < expectedWarm.length) await new Promise((r) => setTimeout(r, 200));
      }
      expect(listedWarm.sort()).toEqual([...expectedWarm].sort());

      // An experiment costs no Temporal action: the same run of the same agent without one costs the same.
      const plainRun = await start('support-untested', callers.plain[1]);
      await plainRun.result();
      const cost = async (id: string) => billableActions(await env.client.workflow.getHandle(id).fetchHistory());
      expect(await cost(handles[1]!.workflowId)).toEqual(await cost(plainRun.workflowId));
      expect(await cost(handles[4]!.workflowId)).toEqual(await cost(plainRun.workflowId));

      // Late scores, after the runs ended: people accepted the warm answers and not the plain ones.
      for (const [i, p] of planned.entries()) {
        const warm = p.expected === 'warm';
        await h.agents.score(all[i]!, { name: 'accepted', value: warm, by: 'support-lead' });
        await h.agents.score(all[i]!, { name: 'csat', value: warm ? 5 : 2, by: 'survey' });
      }
      // A second person's csat on one warm run: averaged into that run's one observation.
      await h.agents.score(all[3]!, { name: 'csat', value: 3, by: 'another-survey' });

      const cli = cliEnv({ THOUGHTLINE_TASK_QUEUE: h.taskQueue });
      const json = await runCli(['eval', 'report', '--experiment', experimentName, '--json'], cli);
      const text = await runCli(['eval', 'report', '--experiment', experimentName, '--since', '1h'], cli);
      const wrong = await runCli(['eval', 'report', '--experiment', experimentName, '--model', 'x'], cli);
      const missing = await runCli(['eval', 'report'], cli);
      // Bounded: the newest N runs, saying more exist; past the limit's bound, a usage error.
      const limited = await runCli(['eval', 'report', '--experiment', experimentName, '--limit', '2', '--json'], cli);
      const tooMany = await runCli(['eval', 'report', '--experiment', experimentName, '--limit', '10001'], cli);
      return { json, text, wrong, missing, limited, tooMany, fallback, planned };
    });

    const { json, text, wrong, missing, limited, tooMany, fallback, planned } = cliRuns;
    expect(json.code, json.stderr).toBe(0);
    const report = ExperimentReport.parse(JSON.parse(json.stdout));
    expect(report).toMatchObject({ experiment: experimentName, runs: planned.length + 1, truncated: false });
    const variant = (name: string) => report.variants.find((v) => v.variant === name)!;
    expect(report.variants.map((v) => v.variant)).toEqual(['plain', 'warm']);
    const count = (name: string) => planned.filter((p) => p.expected === name).length + (fallback === name ? 1 : 0);
    for (const name of ['plain', 'warm'] as const) {
      const v = variant(name);
      expect(v).toMatchObject({ runs: count(name), ended: count(name) });
      expect(v.successRate).toMatchObject({ value: 1, n: count(name), over: 'wilson' });
      expect(v.successRate!.interval!.high).toBe(1);
      expect(v.costUsd!.value).toBeCloseTo(name === 'warm' ? 0.003 : 0.001, 6);
      expect(v.tokens!.value).toBe(name === 'warm' ? 320 : 120);
      expect(v.latencyMs!.p50).toBeGreaterThan(0);
      expect(v.latencyMs!.p95).toBeGreaterThanOrEqual(v.latencyMs!.p50);
    }
    // Scores credited to the variant of the run they were given to (the anonymous run has none).
    const scored = (name: string) => planned.filter((p) => p.expected === name).length;
    const accepted = (name: string) => variant(name).scores.find((s) => s.name === 'accepted')!;
    expect(accepted('warm')).toMatchObject({ runs: scored('warm'), mean: { value: 1 }, passRate: { value: 1 } });
    expect(accepted('plain')).toMatchObject({ runs: scored('plain'), mean: { value: 0 }, passRate: { value: 0 } });
    expect(accepted('plain').passRate!.interval!.low).toBe(0);
    expect(accepted('plain').passRate!.interval!.high).toBeGreaterThan(0);
    const csat = (name: string) => variant(name).scores.find((s) => s.name === 'csat')!;
    // Warm: 5, 5, 5, 5 and one run scored 5 and 3 (mean 4): a mean of 4.8 over five runs, with a t interval; not a pass rate.
    expect(csat('warm').runs).toBe(scored('warm'));
    expect(csat('warm').mean.value).toBeCloseTo((5 * (scored('warm') - 1) + 4) / scored('warm'), 9);
    expect(csat('warm').mean.interval).toBeDefined();
    expect(csat('warm').passRate).toBeUndefined();
    expect(csat('plain').mean).toMatchObject({ value: 2, n: scored('plain') });

    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Experiment ${experimentName}: ${planned.length + 1} runs read.`);
    expect(text.stdout).toMatch(new RegExp(`warm: ${count('warm')} runs\\n  success      100\\.0% \\[`));
    expect(text.stdout).toContain('  score accepted: mean 1.00');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('"eval report" does not take --model');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('eval report needs --experiment NAME');
    expect(limited.code, limited.stderr).toBe(0);
    expect(ExperimentReport.parse(JSON.parse(limited.stdout))).toMatchObject({ runs: 2, limit: 2, truncated: true });
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('--limit takes a whole number from 1 to 10000');
  }, 300_000);
});
