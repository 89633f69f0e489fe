import type { SamplingSettings } from '../../../domain';

/**
 * Which sampling settings a Claude model takes through the Messages API, and how they are sent.
 * Pure; runs in the activity before any I/O, so a run that asks for what the model refuses fails
 * its first model call with a clear ModelSettingUnsupported instead of an API 400 (or, worse, a
 * setting silently dropped). The rules, as Anthropic documents them (read 2026-11-28):
 *
 * - API version 2026-10-21, which @anthropic-ai/sdk 1.x sends by default, answers 400 to
 *   `temperature`, `top_p` and `top_k` at any value, defaults included; the SDK's types dropped
 *   them. Version 2023-06-01 still takes them, so a call that sets one is sent with
 *   `anthropic-version: 2023-06-01` (Anthropic's 2026-10-21 API release and SDK migration notes;
 *   platform.claude.com/docs/en/api/versioning). Calls that set none keep the SDK's version.
 * - Claude 4.7 and later (Opus 4.7, 4.8, 5, 5.5; Sonnet 5, 5.5; Haiku 5.5; Fable; Mythos) removed
 *   the sampling parameters: a non-default value is a 400 on every version
 *   (platform.claude.com/docs/en/about-claude/models/migration-guide, "Migrating to Claude Opus 4.7").
 * - Opus 4.1 to 4.6, Sonnet 4.5 and 4.6, Haiku 4.5: "temperature and top_p cannot both be
 *   specified for this model"; either one, and top_k, is taken.
 * - Older models (Claude 3.x, Opus 4, Sonnet 4) take all three.
 * - `temperature` is 0 to 1 on the Messages API (SamplingSettings allows up to 2 for others).
 * - Extended thinking requires temperature 1 and refuses top_k, with top_p only within 0.95 to 1
 *   (platform.claude.com/docs/en/build-with-claude/extended-thinking, "Feature compatibility").
 *   This provider never turns thinking on, and the models that think by default are the 4.7+
 *   ones, which take no sampling at all; so no rule here depends on thinking.
 * - The Messages API has no seed.
 * A model id this table cannot place (a proxy's alias, a future family) is refused rather than
 * guessed: the allow-list fails closed, and the message says how to proceed.
 */

/** The API version that still takes sampling parameters. */
export const SAMPLING_API_VERSION = '2023-06-01';

type SamplingFamily = 'all' | 'temperature-or-top-p' | 'none';

/** The sampling body fields of a Messages request; absent means not sent. */
export interface AnthropicSamplingFields {
  temperature?: number;
  top_p?: number;
  top_k?: number;
}

/** Why this model cannot take these settings, or undefined when it can. */
export function anthropicSamplingProblem(model: string, sampling: SamplingSettings | undefined): string | undefined {
  const set = setSettings(sampling);
  if (set.length === 0) return undefined;
  if (sampling?.seed !== undefined) return 'seed (the Messages API has no seed)';
  const family = samplingFamily(model);
  if (family === undefined) {
    return `${set.join(', ')} (the sampling rules of "${model}" are not known here; name a Claude model id such as claude-sonnet-4-6)`;
  }
  if (family === 'none') return `${set.join(', ')} (Claude 4.7 and later models take no sampling settings)`;
  if (family === 'temperature-or-top-p' && sampling?.temperature !== undefined && sampling.topP !== undefined) {
    return 'temperature with topP (this model takes one or the other, not both)';
  }
  if (sampling?.temperature !== undefined && sampling.temperature > 1) {
    return `temperature ${sampling.temperature} (the Messages API takes 0 to 1)`;
  }
  return undefined;
}

/** The body fields for settings `anthropicSamplingProblem` accepted; empty when none is set. */
export function anthropicSamplingFields(sampling: SamplingSettings | undefined): AnthropicSamplingFields {
  return {
    ...(sampling?.temperature !== undefined ? { temperature: sampling.temperature } : {}),
    ...(sampling?.topP !== undefined ? { top_p: sampling.topP } : {}),
    ...(sampling?.topK !== undefined ? { top_k: sampling.topK } : {}),
  };
}

function setSettings(sampling: SamplingSettings | undefined): string[] {
  return Object.entries(sampling ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
}

const FAMILY_NAMES = ['opus', 'sonnet', 'haiku'] as const;
const NO_SAMPLING_NAMES = ['fable', 'mythos'];

/**
 * The family of a Claude model id, from its name and version: `claude-sonnet-4-6`,
 * `claude-opus-4-1-20250805`, `claude-opus-4-20250514` (4.0: the date is not a minor version),
 * `claude-3-7-sonnet-latest`, `claude-fable-5`. Undefined for anything else.
 */
export function samplingFamily(model: string): SamplingFamily | undefined {
  const parts = model.toLowerCase().split('-');
  if (parts[0] !== 'claude' || parts.length < 2) return undefined;
  if (NO_SAMPLING_NAMES.includes(parts[1]!)) return 'none';
  const named = FAMILY_NAMES.find((name) => name === parts[1]);
  if (named !== undefined) {
    const version = versionOf(parts.slice(2));
    return version === undefined ? undefined : familyOf(named, version);
  }
  // Claude 3.x ids put the version first: claude-3-5-haiku-20241022, claude-3-opus-latest.
  const version = versionOf(parts.slice(1));
  const name = parts.slice(1).find((part) => (FAMILY_NAMES as readonly string[]).includes(part));
  return version !== undefined && version.major === 3 && name !== undefined ? 'all' : undefined;
}

interface ModelVersion {
  major: number;
  minor: number;
}

/** `4`, `6` → 4.6; `4`, `20250514` → 4.0 (a dated snapshot of 4). */
function versionOf(parts: string[]): ModelVersion | undefined {
  const major = smallNumber(parts[0]);
  if (major === undefined) return undefined;
  return { major, minor: smallNumber(parts[1]) ?? 0 };
}

/** A one- or two-digit number; a date suffix (8 digits) or a word is not a version part. */
function smallNumber(part: string | undefined): number | undefined {
  if (part === undefined || part.length === 0 || part.length > 2) return undefined;
  return [...part].every((c) => c >= '0' && c <= '9') ? Number(part) : undefined;
}

function familyOf(name: (typeof FAMILY_NAMES)[number], { major, minor }: ModelVersion): SamplingFamily {
  if (major > 4 || (major === 4 && minor >= 7)) return 'none';
  if (major < 4) return 'all';
  if (name === 'haiku') return 'temperature-or-top-p';
  if (name === 'opus') return minor >= 1 ? 'temperature-or-top-p' : 'all';
  return minor >= 5 ? 'temperature-or-top-p' : 'all';
}
