import type { ArgumentPredicate, ExpectedToolCall } from '../eval-case';
import type { FactToolCall } from '../scoring-facts';
import { jsonEqual } from './json-values';
import { compileRe2 } from './re2-pattern';
import { shown } from './score';

/**
 * Why one argument fails its predicate, or undefined when it holds. `contains` and `regex` read a
 * string argument as it is and any other as its JSON text; `range` holds for numbers only;
 * `present: false` holds when the argument is absent (or undefined). A regex RE2 refuses fails.
 */
export function predicateProblem(
  name: string,
  predicate: ArgumentPredicate,
  args: Record<string, unknown>,
): string | undefined {
  const has = Object.prototype.hasOwnProperty.call(args, name) && args[name] !== undefined;
  const value = args[name];
  if ('present' in predicate) return has === predicate.present ? undefined : `${name} is ${has ? 'present' : 'absent'}`;
  if (!has) return `${name} is absent`;
  if ('equals' in predicate)
    return jsonEqual(value, predicate.equals)
      ? undefined
      : `${name} is ${shown(value)}, not ${shown(predicate.equals)}`;
  if ('oneOf' in predicate)
    return predicate.oneOf.some((option) => jsonEqual(value, option))
      ? undefined
      : `${name} is ${shown(value)}, not one of ${shown(predicate.oneOf)}`;
  if ('range' in predicate) {
    const { min, max } = predicate.range;
    if (typeof value !== 'number') return `${name} is ${shown(value)}, not a number`;
    if ((min !== undefined && value < min) || (max !== undefined && value > max))
      return `${name} is ${value}, outside [${min ?? '-∞'}, ${max ?? '∞'}]`;
    return undefined;
  }
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  if ('contains' in predicate)
    return text.includes(predicate.contains) ? undefined : `${name} ${shown(text)} lacks ${shown(predicate.contains)}`;
  const compiled = compileRe2(predicate.regex, false);
  if ('problem' in compiled) return `${name}: regex ${shown(predicate.regex)} refused by RE2: ${compiled.problem}`;
  return compiled.test(text) ? undefined : `${name} ${shown(text)} does not match ${shown(predicate.regex)}`;
}

/** Why a call made is not the expected one (another tool, or the first argument that fails), or undefined. */
export function callProblem(
  expected: ExpectedToolCall,
  call: Pick<FactToolCall, 'tool' | 'arguments'>,
): string | undefined {
  if (call.tool !== expected.tool) return `${call.tool} is not ${expected.tool}`;
  for (const [name, predicate] of Object.entries(expected.arguments ?? {})) {
    const problem = predicateProblem(name, predicate, call.arguments);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

export const callMatches = (expected: ExpectedToolCall, call: Pick<FactToolCall, 'tool' | 'arguments'>): boolean =>
  callProblem(expected, call) === undefined;
