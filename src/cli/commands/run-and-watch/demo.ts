import type { CommandSpec } from '../../spec/command-line';
import { flag, text } from '../../spec/flags';
import fs from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from '../../../dev-server/project-paths';
import { WEATHER_AGENT } from '../../../demo/offline-weather-model';
import type { SubAgentDefinition } from '../../../domain';
import { renderTree } from '../../render/render-tree';
import { connectOrStart, webUiLink } from '../../setup/runtime';

/** `temporal` when it is on PATH; else the project-local copy the demo may have installed. */
function temporalCommand(): string {
  const local = path.join(findProjectRoot(), '.thoughtline/bin/temporal');
  const onPath = (process.env['PATH'] ?? '')
    .split(path.delimiter)
    .some((dir) => fs.existsSync(path.join(dir, 'temporal')));
  return onPath || !fs.existsSync(local) ? 'temporal' : path.relative(process.cwd(), local) || local;
}
import { runTask } from './run-task';
import { writeSafe } from '../../render/terminal-safe';
import { viewResult } from '../../../domain/chain/chain-view';
import { answerLabel } from '../../../domain/chain/answer-grounding';
import { LOCAL_MODEL, localModelOf } from '../../setup/local-model-setup';

/** The classic ReAct example task: compare the weather in two cities. */
export const DEMO_TASK = "What's the weather in San Francisco and Paris? Compare them.";
/** The team demo's task: one lead, three weather agents working at once. */
export const TEAM_TASK = 'Compare the weather in Paris, Tokyo and Berlin.';
/** The team demo's catalogue: one kind of sub-agent, called once per city. */
export const TEAM_AGENTS: Record<string, SubAgentDefinition> = {
  [WEATHER_AGENT]: {
    description: 'Finds the current weather of one city and answers with the reading.',
    instructions:
      'You find the current weather of the city you are given, with the get_weather tool, and answer with the reading.',
    tools: ['get_weather'],
    limits: { maxIterations: 4 },
  },
};

/** `npm run demo`: server, worker and one agent run (with `--team`, a lead and its sub-agents), with everything a newcomer needs to see. */
export async function demo(options: { team?: boolean; model?: string } = {}): Promise<boolean> {
  const c = await connectOrStart();
  const task = options.team ? TEAM_TASK : DEMO_TASK;
  process.stdout.write(`\nThoughtline demo — task: ${task}\n`);
  process.stdout.write(
    `Model: ${localModelOf(options.model) ? `${LOCAL_MODEL.model}, run in this process (--model local)` : c.config.anthropicApiKey ? `Claude (${c.config.model})` : 'the offline model (no ANTHROPIC_API_KEY; docs/offline.md)'}\n\n`,
  );
  const extra = options.team ? { agentName: 'weather_lead', agents: TEAM_AGENTS, tokenBudget: 200_000 } : {};
  const model = options.model ? { model: options.model } : {};
  const result = await runTask({ task, json: false, embeddedWorker: true, ownWorker: true, extra, ...model }, c);
  const link = webUiLink(c.server, result.chain.chainId);
  if (options.team)
    writeSafe(process.stdout, `\nThe tree of runs:\n${renderTree(await c.agents.tree(result.chain.chainId))}\n`);
  writeSafe(
    process.stdout,
    [
      '',
      // "Final answer" only for a grounded success (docs/concepts.md, "Grounded answers").
      `${answerLabel(result)?.title ?? 'Final answer'}: ${viewResult(result, 'developer').finalAnswer}`,
      '',
      ...(link ? [`See this run in the Temporal Web UI: ${link}`] : []),
      `List runs:   ${temporalCommand()} workflow list --address ${c.server.address}`,
      `Its chain:   npx thoughtline chain ${result.chain.chainId}${options.team ? ' --expand' : ''}`,
      ...(options.team ? [`The tree:    npx thoughtline tree ${result.chain.chainId}`] : []),
      '',
    ].join('\n'),
  );
  await c.agents.client.connection.close();
  return result.success;
}

export const DEMO_COMMAND: CommandSpec = {
  name: 'demo',
  group: 'Run and watch',
  summary: 'start what is missing and run the weather demo',
  description:
    'Start what is missing (a Temporal dev server, a worker) and run the weather demo, then print its chain and tree.',
  examples: ['thoughtline demo', 'thoughtline demo --team'],
  args: [],
  options: {
    team: flag('a lead agent with weather sub-agents in parallel'),
    model: text('local', 'local: SmolLM2-135M in this process (98 MB, fetched once)'),
  },
  run: async (l) =>
    (await demo({ team: l.flag('team'), ...(l.text('model') ? { model: l.text('model')! } : {}) })) ? 0 : 1,
};
