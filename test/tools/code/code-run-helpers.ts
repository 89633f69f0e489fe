import type { CodeRunResult } from '../../../src/tools/builtin/code';
import type { ToolDefinition } from '../../../src/tools/define-tool';
import { toolContext } from '../../helpers/tool-context';

/** One execution as the worker runs it (arguments parsed first), in the run `runKey`. */
export async function execute(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  runKey = 'run-1',
): Promise<CodeRunResult> {
  return (await tool.execute(
    tool.input.parse(args),
    toolContext({ idempotencyKey: `${runKey}:step-1` }),
  )) as CodeRunResult;
}
