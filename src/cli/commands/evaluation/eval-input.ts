import path from 'node:path';
import { type Config } from '../../../config';
import { type LoadedDataset } from '../../../eval/dataset';
import { registeredStrategy, resolveModel, type ModelSettings } from '../../../domain';
import { counted } from '../../../domain/text/counted';
import {
  EvaluationInput,
  MAX_EVAL_UNITS,
  type EvaluationInputInit,
  type EvalVariant,
} from '../../../domain/evaluation';
import { MAX_CARRIED_BYTES, utf8Bytes } from '../../../domain/run/payload-size';
import { localModelOf } from '../../setup/local-model-setup';
import { UsageError } from '../../spec/usage-error';
import type { EvalOptions } from './eval-options';

/** A variant id from a model or agent name: the characters ids allow, others as `-`. */
export const variantId = (name: string): string => name.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 64);

/** A `--model` value as run reads it: a registry name, `local`, `provider/model`, or an Anthropic model. */
export function modelSettings(name: string, config: Readonly<Config>): Partial<ModelSettings> {
  const registry = config.modelRegistry;
  if (registry) {
    try {
      return resolveModel(registry, name);
    } catch (err) {
      throw new UsageError(`--model ${name}: ${(err as Error).message}`);
    }
  }
  const local = localModelOf(name);
  if (local) return local;
  const slash = name.indexOf('/');
  return slash > 0
    ? { provider: name.slice(0, slash), model: name.slice(slash + 1) }
    : { provider: 'anthropic', model: name };
}

/** Each `--model` × each `--agent` is a variant; no `--model`: the configured model. */
export function evaluationVariants(options: EvalOptions, config: Readonly<Config>): EvalVariant[] {
  const models = options.models.length > 0 ? options.models : [config.model];
  const agents: Array<string | undefined> = options.agents.length > 0 ? options.agents : [undefined];
  return agents.flatMap((agent) =>
    models.map((name) => {
      const strategy = config.modelRegistry ? registeredStrategy(config.modelRegistry, name) : undefined;
      return {
        // An agent alone is named after itself; with models, after both.
        id: variantId(agent === undefined ? name : options.models.length > 0 ? `${agent}.${name}` : agent),
        model: modelSettings(name, config) as ModelSettings,
        ...(agent !== undefined ? { agent } : {}),
        ...(strategy ? { strategy } : {}),
      };
    }),
  );
}

/** The evaluation's input, checked by its schema; a dataset too large for one input is refused. */
export function evaluationInput(
  dataset: LoadedDataset,
  options: EvalOptions,
  config: Readonly<Config>,
): EvaluationInput {
  const init: EvaluationInputInit = {
    name: dataset.name,
    dataset: { name: dataset.name, sha256: dataset.sha256 },
    cases: dataset.cases,
    variants: evaluationVariants(options, config),
    scorers: options.scorers,
    ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.budgetUsd !== undefined || options.budgetTokens !== undefined
      ? {
          budget: {
            ...(options.budgetUsd !== undefined ? { costUsd: options.budgetUsd } : {}),
            ...(options.budgetTokens !== undefined ? { tokens: options.budgetTokens } : {}),
          },
        }
      : {}),
    ...(options.judge !== undefined ? { judge: { model: modelSettings(options.judge, config) as ModelSettings } } : {}),
  };
  const units = init.cases.length * init.variants.length * (init.repeat ?? 1);
  if (units > MAX_EVAL_UNITS)
    throw new UsageError(
      `${counted(init.cases.length, 'case')} × ${counted(init.variants.length, 'variant')} × ${counted(init.repeat ?? 1, 'repeat')} is ${units} runs; at most ${MAX_EVAL_UNITS}: split the dataset or run fewer variants.`,
    );
  const parsed = EvaluationInput.safeParse(init);
  if (!parsed.success)
    throw new UsageError(
      `the evaluation's input: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const bytes = utf8Bytes(JSON.stringify(parsed.data));
  if (bytes > MAX_CARRIED_BYTES)
    throw new Error(
      `the evaluation's input is ${bytes} bytes with its cases; Temporal takes at most ${MAX_CARRIED_BYTES} in one input: split ${path.basename(dataset.file)}.`,
    );
  return parsed.data;
}
