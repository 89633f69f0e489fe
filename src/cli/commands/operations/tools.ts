import type { CommandSpec } from '../../spec/command-line';
import { flag, text } from '../../spec/flags';
import { loadToolsModule } from '../../setup/load-tools-module';
import { BUILT_IN_TOOLS } from '../../setup/runtime';
import { loadMcpConfig } from '../../../activities/mcp/load-mcp-config';
import { createMcpTools } from '../../../activities/mcp/mcp-tools';
import { splitMcpName } from '../../../domain/tools/mcp-config';
import { formatToolTable, toolRow, type ToolRow } from './list-tools';

export interface ToolsCommandOptions {
  /** The tools module a worker would load with `--tools`. */
  tools?: string;
  /** An MCP config file a worker would load with `--mcp`: its servers are started to list their tools. */
  mcp?: string;
  json: boolean;
}

/**
 * `tools [--tools FILE] [--mcp FILE] [--json]`: what `thoughtline worker` with the same flags offers the
 * model, with each tool's type and what a run does with a call by default (read-only calls are
 * reused; approval `always` waits for a person). Needs no Temporal server; with `--mcp` it starts
 * the MCP servers to list their tools, then stops them.
 */
export async function printTools(options: ToolsCommandOptions): Promise<number> {
  const rows: ToolRow[] = [
    ...BUILT_IN_TOOLS.map((tool) => toolRow(tool, 'built-in')),
    ...(options.tools ? loadToolsModule(options.tools).map((tool) => toolRow(tool, 'your module')) : []),
    ...(options.mcp ? await mcpRows(options.mcp) : []),
  ];
  process.stdout.write(options.json ? `${JSON.stringify(rows, null, 2)}\n` : formatToolTable(rows));
  return 0;
}

/** Every tool of every MCP server in the file, as a run would see it. */
async function mcpRows(file: string): Promise<ToolRow[]> {
  const mcp = createMcpTools(await loadMcpConfig(file));
  try {
    return (await mcp.allSpecs()).map((spec) => toolRow(spec, `mcp:${splitMcpName(spec.name)!.server}`));
  } finally {
    await mcp.close();
  }
}

export const TOOLS_COMMAND: CommandSpec = {
  name: 'tools',
  group: 'Operations',
  summary: 'the tools a worker with these flags offers',
  description: 'List the tools a worker with these flags offers: type, read-only, approval default, required roles.',
  examples: ['thoughtline tools', 'thoughtline tools --mcp mcp.json --json'],
  args: [],
  options: {
    tools: text('FILE', 'a JS module exporting "tools", as for worker'),
    mcp: text('FILE', 'MCP servers, as for worker'),
    json: flag('print the list as JSON'),
  },
  run: async (l) =>
    printTools({
      ...(l.text('tools') ? { tools: l.text('tools')! } : {}),
      ...(l.text('mcp') ? { mcp: l.text('mcp')! } : {}),
      json: l.flag('json'),
    }),
};
