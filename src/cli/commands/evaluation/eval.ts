import type { CommandSpec } from '../../spec/command-line';
import { EVAL_OPTIONS, readEvalOptions } from './eval-options';
import { evaluate } from './evaluate';
import { EVAL_ADD_COMMAND } from './eval-add';
import { EVAL_REPORT_COMMAND } from './eval-report';

export const EVAL_COMMAND: CommandSpec = {
  name: 'eval',
  group: 'Evaluation',
  summary: 'run a dataset as agent runs; reports and a regression gate',
  description:
    'Run every case of a dataset (.jsonl: a case a line; .yaml: a list) as agent runs under one durable evaluationWorkflow, print progress and the success criteria, and write result.json, report.md and report.html (docs/evaluation.md). Exit 1 when the gate finds a regression or the evaluation was cancelled; 130 on Ctrl-C (it goes on: resume with --resume).',
  examples: [
    'thoughtline eval eval/loop.jsonl --tools eval/loop-tools.cjs --baseline eval/baselines/loop-offline.json',
    'thoughtline eval support.jsonl --model claude-sonnet-4-6 --model claude-haiku-4-5 --repeat 5 --budget-usd 5',
  ],
  args: [{ name: '<dataset>', needs: 'a dataset, e.g. thoughtline eval eval/loop.jsonl' }],
  options: EVAL_OPTIONS,
  subcommands: [EVAL_ADD_COMMAND, EVAL_REPORT_COMMAND],
  run: async (l) => evaluate(readEvalOptions(l)),
};
