import fs from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from '../../dev-server/project-paths';
import { connect, webUiLink } from '../runtime';

/** `temporal` when it is on PATH; else the project-local copy the demo may have installed. */
function temporalCommand(): string {
  const local = path.join(findProjectRoot(), '.thoughtline/bin/temporal');
  const onPath = (process.env['PATH'] ?? '').split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, 'temporal')));
  return onPath || !fs.existsSync(local) ? 'temporal' : path.relative(process.cwd(), local) || local;
}
import { runTask } from './run';

/** Seed 000's example task. */
export const DEMO_TASK = "What's the weather in San Francisco and Paris? Compare them.";

/** `npm run demo`: server, worker and one agent run, with everything a newcomer needs to see. */
export async function demo(): Promise<boolean> {
  const c = await connect();
  process.stdout.write(`\nThoughtline demo — task: ${DEMO_TASK}\n`);
  process.stdout.write(`Model: ${c.config.anthropicApiKey ? `Claude (${c.config.model})` : 'offline scripted model (no ANTHROPIC_API_KEY)'}\n\n`);
  const result = await runTask({ task: DEMO_TASK, json: false, embeddedWorker: true }, c);
  const link = webUiLink(c.server, result.chain.chainId);
  process.stdout.write(
    [
      '',
      `Final answer: ${result.finalAnswer}`,
      '',
      ...(link ? [`See this run in the Temporal Web UI: ${link}`] : []),
      `List runs:   ${temporalCommand()} workflow list --address ${c.server.address}`,
      `Its chain:   npx thoughtline chain ${result.chain.chainId}`,
      '',
    ].join('\n'),
  );
  await c.agents.client.connection.close();
  return result.success;
}
