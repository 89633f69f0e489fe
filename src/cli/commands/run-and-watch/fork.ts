import type { CommandSpec } from '../../spec/command-line';
import { flag, nonNegativeInteger, person, PERSON_OPTIONS, providerOf, RUN_ID, text } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';
import { forkCommand } from '../../reading/fork-run';

export const FORK_COMMAND: CommandSpec = {
  name: 'fork',
  group: 'Run and watch',
  summary: 'a new run from the conversation at step N, with a change',
  description:
    'Start a new run from the conversation and spend at step N (up to the next model call), with the change; it lists first the calls after that point it may make again. The original is untouched. An imported run (import:…) is forked from the chain store (THOUGHTLINE_STORE), its conversation rebuilt from its steps (docs/auditing.md).',
  examples: [
    'thoughtline fork agent-1 --at-step 4 --dry-run',
    'thoughtline fork agent-1 --at-step 4 --steer "Check the totals first."',
    'thoughtline fork import:4c1d0e07 --at-step 5 --dry-run',
  ],
  args: [RUN_ID],
  options: {
    'at-step': text('N', 'the step to fork at (see the chain command)'),
    model: text('M', 'the model from there on (provider/model or a model name)'),
    steer: text('TEXT', 'an instruction added at that point'),
    tools: text('a,b', 'the tools the new run may use'),
    'dry-run': flag('print what the fork would repeat, and start nothing'),
    json: flag('print the result as JSON'),
    ...PERSON_OPTIONS,
  },
  run: async (l) => {
    if (l.text('at-step') === undefined)
      throw new UsageError('fork needs --at-step N: the step to fork at (see thoughtline chain <id>).');
    const atStep = nonNegativeInteger(l, 'at-step');
    const model = l.text('model');
    const tools = l.text('tools');
    const steer = l.text('steer');
    return forkCommand(l.args[0]!, {
      atStep,
      ...(model
        ? {
            model: model.includes('/')
              ? { provider: providerOf(model), model: model.slice(model.indexOf('/') + 1) }
              : { model },
          }
        : {}),
      ...(tools !== undefined
        ? {
            tools: tools
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
          }
        : {}),
      ...(steer ? { steer } : {}),
      dryRun: l.flag('dry-run'),
      json: l.flag('json'),
      ...person(l),
    });
  },
};
