import { z } from 'zod';
import { MAX_CONSENSUS_MODELS, SamplingSettings } from '../../../domain';

const SYSTEM_CHARS = 4_000;

/** The tool's input, as `execute` receives it after the schema's checks. */
export interface AskModelInput {
  model?: string;
  models?: string[];
  mode?: 'consensus';
  prompt: string;
  system?: string;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  seed?: number;
}

/**
 * The tool's input: one object (the model APIs take only an object schema, so not a union) with
 * `model`, or `models` and `mode: "consensus"`, or neither (the workflow then names the model by
 * the plan task's complexity); a refinement says which when a call gets it wrong. Every model name is an enum of the allow-list, so any other name is refused before a
 * call. The sampling settings keep SamplingSettings' bounds (the same schema pieces). With fewer
 * than two models to pick from, consensus is not offered at all.
 */
export function inputSchema(
  aliases: readonly [string, ...string[]],
  maxTokens: number,
  maxPromptChars: number,
): z.ZodType<AskModelInput> {
  const name = z.enum(aliases);
  const most = Math.min(MAX_CONSENSUS_MODELS, aliases.length);
  const howMany = most === 2 ? '2' : `2 to ${most}`;
  const consensus =
    aliases.length >= 2
      ? {
          models: z
            .array(name)
            .min(2, 'consensus needs at least 2 models in `models`')
            .max(most, `consensus takes at most ${most} models in \`models\``)
            .optional()
            .describe(
              `With mode "consensus": ${howMany} different models, all asked the same prompt at once. The result has each answer and how far they agree.`,
            ),
          mode: z.literal('consensus').optional().describe('Set to "consensus" together with `models`.'),
        }
      : {};
  const { temperature, topP, topK, seed } = SamplingSettings.shape;
  return z
    .object({
      model: name
        .optional()
        .describe(
          "Which model answers. Leave out to let the run choose by the current plan task's complexity (else the first model).",
        ),
      ...consensus,
      prompt: z
        .string()
        .min(1)
        .max(maxPromptChars)
        .describe('The whole question: the model sees nothing else of this conversation.'),
      system: z.string().max(SYSTEM_CHARS).optional().describe('Instructions for the answering model.'),
      maxTokens: z
        .number()
        .int()
        .positive()
        .max(maxTokens)
        .optional()
        .describe(`Most tokens the answer may have (default ${maxTokens}); per model in a consensus.`),
      temperature: temperature.describe('Sampling temperature, 0–2. Leave out for the model default.'),
      topP: topP.describe('Nucleus sampling, above 0 up to 1. Leave out for the model default.'),
      topK: topK.describe('Sample from the K likeliest tokens. Leave out for the model default.'),
      seed: seed.describe('A seed for repeatable sampling, where the model supports one.'),
    })
    .strict()
    .superRefine((input, ctx) => {
      const issue = (message: string) => ctx.addIssue({ code: 'custom', message, input });
      const models = 'models' in input ? (input.models as string[] | undefined) : undefined;
      const mode = 'mode' in input ? input.mode : undefined;
      if (input.model !== undefined && models !== undefined) issue('Give either `model` or `models`, not both.');
      else if (models !== undefined && mode !== 'consensus') issue('With `models`, set mode: "consensus".');
      else if (models === undefined && mode === 'consensus')
        issue(`mode "consensus" needs \`models\`: ${howMany} different model names.`);
      const twice = models?.find((m, i) => models.indexOf(m) !== i);
      if (twice !== undefined) issue(`Each model may be named once in \`models\`; "${twice}" is named twice.`);
    }) as z.ZodType<AskModelInput>;
}
