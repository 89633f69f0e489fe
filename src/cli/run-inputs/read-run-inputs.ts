import path from 'node:path';
import { z } from 'zod';
import { AgentContext } from '../../domain/run/agent-context';
import type { WorkflowTemplate } from '../../domain/planning/workflow-template';
import { UsageError } from '../spec/usage-error';
import { readContextData } from './read-context-data';
import { contextFileNames, readContextFiles } from './read-context-files';
import { readWorkflow } from './read-workflow-file';

export interface RunInputFlags {
  /** `--files`, each occurrence (comma-separated names in each). */
  files?: readonly string[] | undefined;
  filesRoot?: string | undefined;
  context?: string | undefined;
  workflow?: string | undefined;
}

export interface RunInputs {
  context?: AgentContext;
  workflow?: WorkflowTemplate;
  /** Where the files were read, absolute: the CLI's own worker roots its file tools there. Set by `--files` or `--files-root`. */
  filesRoot?: string;
}

/**
 * What `run --files/--files-root/--context/--workflow` add, read and checked before anything
 * starts; every refusal a UsageError naming the flag and the bound. Secrets are not redacted
 * here: AgentClient.start does that for every client.
 */
export async function readRunInputs(flags: RunInputFlags): Promise<RunInputs> {
  const names = contextFileNames(flags.files ?? []);
  if (flags.files && names.length === 0)
    throw new UsageError('--files takes file names, e.g. --files auth.py,README.md.');
  const root = flags.filesRoot !== undefined || names.length > 0 ? path.resolve(flags.filesRoot ?? '.') : undefined;
  const files = root ? await readContextFiles(names, root) : [];
  const data = flags.context !== undefined ? readContextData(flags.context) : undefined;
  const workflow = flags.workflow !== undefined ? readWorkflow(flags.workflow) : undefined;
  const context = data || files.length > 0 ? checkedContext({ ...(data ? { data } : {}), files }) : undefined;
  return { ...(context ? { context } : {}), ...(workflow ? { workflow } : {}), ...(root ? { filesRoot: root } : {}) };
}

/** The whole context against its schema: each part was bounded already, this bounds them together (as JSON). */
function checkedContext(init: z.input<typeof AgentContext>): AgentContext {
  const parsed = AgentContext.safeParse(init);
  if (!parsed.success)
    throw new UsageError(`--files/--context: ${parsed.error.issues.map((i) => i.message).join(' ')}`);
  return parsed.data;
}
