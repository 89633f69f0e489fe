import fs from 'node:fs';
import { z } from 'zod';
import { PlanTemplateName, SubAgentDefinition, type AgentInputInit } from '../shared';

/** `run --agents FILE`: a JSON object of agents by tool name, checked before anything starts. */
export function readAgentsFile(file: string): Record<string, SubAgentDefinition> {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`--agents ${file}: not readable JSON (${(err as Error).message}).`);
  }
  const parsed = z.record(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a tool name: letters, digits, _ or -'), SubAgentDefinition).safeParse(raw);
  if (!parsed.success) throw new Error(`--agents ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The input fields `run` adds from its flags: a catalogue of sub-agents, planning, a template. */
export function runExtras(flags: { agents?: string | undefined; plan?: boolean | undefined; template?: string | undefined }): Partial<AgentInputInit> {
  const template = flags.template === undefined ? undefined : PlanTemplateName.safeParse(flags.template);
  if (template && !template.success) throw new Error(`--template must be one of ${PlanTemplateName.options.join(', ')}.`);
  return {
    ...(flags.agents ? { agents: readAgentsFile(flags.agents) } : {}),
    ...(flags.plan || template ? { planning: template?.success ? { template: template.data } : {} } : {}),
  };
}
