import { modelChoiceLine, toolEffects, type ModelChoice, type ToolSpec } from '../../../domain';
import type { ToolDefinition } from '../../../tools/define-tool';
import { modelChoicesOf } from '../../../tools/tool-registry';

/** One tool as `thoughtline tools` shows it: what the model sees, and what a run does with a call by default. */
export interface ToolRow {
  name: string;
  type: string;
  /** Where it comes from: `built-in`, `your module`, or `mcp:<server>`. */
  source: string;
  readOnly: boolean;
  /** `never`, `always`, or `rules` (a list of argument rules). */
  approval: string;
  requiredRoles: readonly string[];
  description: string;
  /** The models the tool offers by name (ask_model's), each with its tier and price. */
  models: readonly string[];
}

/** A row from a tool definition (built-in, your module) or from a spec a worker serves (MCP). */
export function toolRow(tool: ToolDefinition | ToolSpec, source: string): ToolRow {
  const approval = tool.approval ?? 'never';
  return {
    name: tool.name,
    type: tool.type,
    source,
    readOnly: toolEffects('readOnly' in tool ? tool : { effects: tool.effects }) === 'none',
    approval: typeof approval === 'string' ? approval : `rules (${approval.anyOf.length})`,
    requiredRoles: tool.requiredRoles ?? [],
    description: tool.description,
    models: offeredModels(tool).map(modelChoiceLine),
  };
}

/** A definition's models offered by name, or a served spec's model choices. */
const offeredModels = (tool: ToolDefinition | ToolSpec): ModelChoice[] =>
  'execute' in tool ? modelChoicesOf(tool) : (tool.modelChoices ?? []);

const COLUMNS: ReadonlyArray<[string, (row: ToolRow) => string]> = [
  ['NAME', (r) => r.name],
  ['TYPE', (r) => r.type],
  ['SOURCE', (r) => r.source],
  ['READ-ONLY', (r) => (r.readOnly ? 'yes' : 'no')],
  ['APPROVAL', (r) => r.approval],
  ['ROLES', (r) => (r.requiredRoles.length ? r.requiredRoles.join(',') : '-')],
];

/** A plain-text table, one tool per line, columns padded; descriptions follow on their own lines. Pure. */
export function formatToolTable(rows: readonly ToolRow[]): string {
  if (rows.length === 0) return 'No tools.\n';
  const cells = rows.map((row) => COLUMNS.map(([, get]) => get(row)));
  const widths = COLUMNS.map(([title], i) => Math.max(title.length, ...cells.map((line) => line[i]!.length)));
  const line = (values: readonly string[]): string =>
    values.map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!))).join('  ');
  const out = [line(COLUMNS.map(([title]) => title)), ...cells.map(line), ''];
  for (const row of rows) {
    out.push(`${row.name}: ${row.description.replace(/\s+/g, ' ').slice(0, 200)}`);
    for (const model of row.models) out.push(`  model ${model}`);
  }
  return `${out.join('\n')}\n`;
}
