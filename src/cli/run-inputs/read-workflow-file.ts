import { readRegularFile } from '../../files/read-regular-file';
import { RegularFileError } from '../../files/regular-file-error';
import path from 'node:path';
import { isMap, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { WorkflowTemplate } from '../../domain/planning/workflow-template';
import { fieldText } from '../../eval/dataset/check-case';
import { UsageError } from '../spec/usage-error';
import { BUILT_IN_WORKFLOWS, builtInWorkflow } from './built-in-workflows';

/** Largest workflow file read; its steps travel in the run's input. */
export const MAX_WORKFLOW_FILE_BYTES = 256 * 1024;
/** At most this many problems are listed; the rest are counted. */
const LISTED = 20;

/**
 * `run --workflow FILE|NAME`: a built-in workflow by name, else a
 * YAML (.yaml, .yml) or JSON (.json) file checked against WorkflowTemplate: ids, references and
 * cycles. Every problem is listed as `FILE:LINE: steps[2].after[0]: message` in one UsageError,
 * before anything starts. Aliases expand up to the YAML parser's default count, no further.
 */
export function readWorkflow(spec: string): WorkflowTemplate {
  // A built-in's name has no extension, so it never names a workflow file.
  const builtIn = builtInWorkflow(spec);
  if (builtIn) return builtIn;
  const ext = path.extname(spec).toLowerCase();
  if (!['.yaml', '.yml', '.json'].includes(ext))
    throw new UsageError(
      `--workflow ${spec}: give a .yaml, .yml or .json file, or a built-in workflow: ${BUILT_IN_WORKFLOWS.join(', ')}.`,
    );
  return parseWorkflowText(readBounded(spec), spec, ext === '.json');
}

/** The workflow in `text` (named `file` in messages), or a UsageError listing every problem with its line. */
export function parseWorkflowText(text: string, file: string, json: boolean): WorkflowTemplate {
  const name = path.basename(file);
  const fail = (problems: readonly { line: number; field?: string; message: string }[]): never => {
    const lines = problems
      .slice(0, LISTED)
      .map((p) => `${name}:${p.line}: ${p.field ? `${p.field}: ` : ''}${p.message}`);
    if (problems.length > LISTED) lines.push(`… and ${problems.length - LISTED} more problems`);
    throw new UsageError(`--workflow ${file} cannot be run:\n${lines.join('\n')}`);
  };
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0)
    fail(
      doc.errors.map((e) => ({
        line: lineCounter.linePos(e.pos[0]).line,
        message: `not valid ${json ? 'JSON' : 'YAML'}: ${e.message.split('\n')[0]}`,
      })),
    );
  // JSON is YAML, not the other way round: a .json file must also be strict JSON.
  if (json) {
    try {
      JSON.parse(text);
    } catch (err) {
      fail([{ line: jsonErrorLine(text, err), message: `not valid JSON: ${(err as Error).message}` }]);
    }
  }
  if (!isMap(doc.contents))
    fail([{ line: lineAt(doc.contents, lineCounter), message: 'a workflow is a mapping with "name" and "steps"' }]);
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (err) {
    fail([{ line: 1, message: (err as Error).message }]);
  }
  const parsed = WorkflowTemplate.safeParse(value);
  if (parsed.success) return parsed.data;
  return fail(
    parsed.error.issues.map((issue) => ({
      line: lineOf(doc, issue.path as (string | number)[], lineCounter),
      field: fieldText(issue.path as (string | number)[]),
      message: issue.message,
    })),
  );
}

const lineAt = (node: Node | null | undefined, counter: LineCounter): number =>
  node?.range ? counter.linePos(node.range[0]).line : 1;

/** The line of the deepest part of `at` the document has: a missing field points at its parent. */
function lineOf(doc: Document, at: readonly (string | number)[], counter: LineCounter): number {
  for (let depth = at.length; depth > 0; depth--) {
    const node = doc.getIn(at.slice(0, depth), true) as Node | undefined;
    if (node?.range) return lineAt(node, counter);
  }
  return lineAt(doc.contents, counter);
}

/** The line of a JSON.parse error, from the line or position V8 puts in its message; 1 when it gives neither. */
function jsonErrorLine(text: string, err: unknown): number {
  const message = (err as Error).message;
  const line = /\(line (\d+) column \d+\)/.exec(message);
  if (line) return Number(line[1]);
  const at = /position (\d+)/.exec(message);
  return at ? text.slice(0, Number(at[1])).split('\n').length : 1;
}

function readBounded(file: string): string {
  try {
    return readRegularFile(file, MAX_WORKFLOW_FILE_BYTES).toString('utf8');
  } catch (err) {
    if (!(err instanceof RegularFileError)) throw err;
    if (err.problem === 'missing')
      throw new UsageError(`--workflow ${file}: no such file (built-in workflows: ${BUILT_IN_WORKFLOWS.join(', ')}).`);
    if (err.problem === 'too_large')
      throw new UsageError(
        `--workflow ${file}: the file is ${err.detail} bytes; a workflow file is at most ${MAX_WORKFLOW_FILE_BYTES}.`,
      );
    if (err.problem === 'not_regular') throw new UsageError(`--workflow ${file}: ${err.message}.`);
    throw new UsageError(`--workflow ${file}: cannot be read (${err.detail ?? err.message}).`);
  }
}
