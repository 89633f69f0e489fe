import type { Artifact } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import {
  CHAIN_ARTIFACT_ID,
  CHAIN_ARTIFACT_KIND,
  CHAIN_MEDIA_TYPE,
  MAX_CHAIN_ARTIFACT_CHARS,
  MAX_CHAIN_ARTIFACT_STEPS,
  type ChainArtifactData,
  type ReasoningStep,
} from '../../../domain';
import { counted } from '../../../domain/text/counted';
import type { RunSnapshot } from './run-snapshot';

/** Where the whole chain of a run is on this server (relative: a card's origin resolves it). */
export const chainPath = (runId: string): string => `/v1/runs/${encodeURIComponent(runId)}/chain`;

/** The first steps that fit the artifact's bounds, and which bound cut the rest (none: all fit). */
function boundedSteps(steps: readonly ReasoningStep[]): { kept: ReasoningStep[]; cut?: 'steps' | 'size' } {
  const kept: ReasoningStep[] = [];
  let chars = 0;
  for (const step of steps) {
    if (kept.length === MAX_CHAIN_ARTIFACT_STEPS) return { kept, cut: 'steps' };
    chars += JSON.stringify(step).length;
    if (chars > MAX_CHAIN_ARTIFACT_CHARS) return { kept, cut: 'size' };
    kept.push(step);
  }
  return { kept };
}

/** The artifact's data: the chain's first steps in the caller's view, cut at the bounds with a note saying so. */
export function chainArtifactData(runId: string, view: ChainArtifactData['view'], steps: readonly ReasoningStep[]) {
  const { kept, cut } = boundedSteps(steps);
  const chain = chainPath(runId);
  const data: ChainArtifactData = {
    kind: CHAIN_ARTIFACT_KIND,
    version: 1,
    runId,
    view,
    totalSteps: steps.length,
    steps: kept,
    chain,
  };
  if (!cut) return data;
  const bound =
    cut === 'steps'
      ? counted(MAX_CHAIN_ARTIFACT_STEPS, 'step')
      : `${MAX_CHAIN_ARTIFACT_CHARS.toLocaleString('en-US')} characters`;
  const note = `Cut at ${bound}: the first ${counted(kept.length, 'step')} of ${steps.length}. The whole chain: GET ${chain} with the same token.`;
  return { ...data, truncated: { reason: cut, note } };
}

/**
 * The task's second artifact once the run ended with a result: its chain as the caller may view
 * it (the snapshot's result went through the one gate, viewResult, in the caller's view and lens),
 * one data part of media type CHAIN_MEDIA_TYPE, bounded (chainArtifactData). It has no text part,
 * so a client that joins artifacts' text reads the answer alone.
 */
export function chainArtifactOf(snapshot: RunSnapshot, metadata: Record<string, unknown>): Artifact | undefined {
  if (snapshot.state !== 'ended' || !snapshot.result || !snapshot.view) return undefined;
  const value = chainArtifactData(snapshot.runId, snapshot.view, snapshot.result.chain.steps);
  return {
    artifactId: CHAIN_ARTIFACT_ID,
    name: 'Reasoning chain',
    description: `The run’s reasoning chain in the ${snapshot.view} view (its steps as JSON, kind ${CHAIN_ARTIFACT_KIND}); cut at ${MAX_CHAIN_ARTIFACT_STEPS} steps or ${MAX_CHAIN_ARTIFACT_CHARS} characters, saying so in "truncated".`,
    parts: [
      {
        content: { $case: 'data', value: value as unknown as Record<string, unknown> },
        metadata: undefined,
        filename: '',
        mediaType: CHAIN_MEDIA_TYPE,
      },
    ],
    metadata,
    extensions: [],
  };
}
