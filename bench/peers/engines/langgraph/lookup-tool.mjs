import { setTimeout as sleep } from 'node:timers/promises';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { TOOL_NAME, observation } from '../lib/loop-script.mjs';

/**
 * The loop's `lookup` tool as a LangChain tool: returns observation(n, bytes). Call n = slowAt
 * sleeps slowMs inside its body (the recover scenario kills the process there).
 */
export function lookupTool({ observationBytes, stepMarks, slowAt, slowMs = 0 }) {
  return tool(
    async ({ n }, config) => {
      const runId = config.configurable.thread_id;
      stepMarks.mark(runId, 'tool', n, 'start');
      if (n === slowAt && slowMs > 0) await sleep(slowMs);
      const result = observation(n, observationBytes);
      stepMarks.mark(runId, 'tool', n, 'end');
      return result;
    },
    {
      name: TOOL_NAME,
      description: 'Looks up result n.',
      schema: z.object({ n: z.number().int() }),
    },
  );
}
