import { ApplicationFailure } from '@temporalio/common';
import { FailureType, type ModelRequest } from '../../../domain';
import type { AiSdkWarning } from './ai-sdk-types';

// The call options whose loss changes what a run means: sampling (a seed makes it look
// reproducible, a low temperature cautious) and stop sequences (text ReAct stops before inventing
// an Observation). Other warnings (a clamped default, a compatibility mode) pass.
const REFUSED_FEATURES = ['temperature', 'topP', 'topK', 'seed', 'stopSequences'] as const;
type RefusedFeature = (typeof REFUSED_FEATURES)[number];

function isSet(request: Pick<ModelRequest, 'sampling' | 'stopSequences'>, feature: RefusedFeature): boolean {
  if (feature === 'stopSequences') return (request.stopSequences?.length ?? 0) > 0;
  return request.sampling?.[feature] !== undefined;
}

/**
 * An AI SDK model reports a setting it dropped or changed as an `unsupported` warning at stream
 * start, and would answer anyway. A setting the call asked for is refused instead, as
 * `refuseUnsupportedSampling` refuses it for the native providers: non-retryable, since every
 * attempt would drop it again.
 */
export function refuseUnsupportedSettings(
  providerName: string,
  request: Pick<ModelRequest, 'model' | 'sampling' | 'stopSequences'>,
  warnings: readonly AiSdkWarning[],
): void {
  const refused = new Map<RefusedFeature, string | undefined>();
  for (const warning of warnings) {
    if (warning.type !== 'unsupported') continue;
    const feature = REFUSED_FEATURES.find((name) => name === warning.feature);
    if (feature !== undefined && isSet(request, feature)) refused.set(feature, warning.details);
  }
  if (refused.size === 0) return;
  const said = [...refused.values()].filter((details) => details !== undefined);
  throw ApplicationFailure.create({
    type: FailureType.ModelSettingUnsupported,
    message:
      `${providerName}/${request.model} does not take ${[...refused.keys()].join(', ')}` +
      (said.length > 0 ? ` (the AI SDK model says: ${said.join('; ')})` : '') +
      '; remove it from the run, the registry entry or the ask_model call.',
    nonRetryable: true,
  });
}
