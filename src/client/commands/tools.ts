import { loadToolsModule } from '../load-tools-module';
import { BUILT_IN_TOOLS } from '../runtime';
import { formatToolTable, toolRow, type ToolRow } from './list-tools';

export interface ToolsCommandOptions {
  /** The tools module a worker would load with `--tools`. */
  tools?: string;
  json: boolean;
}

/**
 * `tools [--tools FILE] [--json]`: what `thoughtline worker` with the same flags offers the
 * model, with each tool's type and what a run does with a call by default (read-only calls are
 * reused; approval `always` waits for a person). Starts nothing and needs no server.
 */
export async function printTools(options: ToolsCommandOptions): Promise<number> {
  const rows: ToolRow[] = [
    ...BUILT_IN_TOOLS.map((tool) => toolRow(tool, 'built-in')),
    ...(options.tools ? loadToolsModule(options.tools).map((tool) => toolRow(tool, 'your module')) : []),
  ];
  process.stdout.write(options.json ? `${JSON.stringify(rows, null, 2)}\n` : formatToolTable(rows));
  return 0;
}
