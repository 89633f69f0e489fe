import { ApplicationFailure } from '@temporalio/common';
import { FailureType, type ModelRequest, type SamplingSettings } from '../../domain';

export type SamplingSetting = keyof SamplingSettings;

/**
 * Refuses, before any I/O, a call that sets a sampling setting this provider cannot send: a
 * setting silently dropped would make a run look reproducible (a seed) or cautious (a low
 * temperature) when it is not. Non-retryable: no attempt can succeed.
 */
export function refuseUnsupportedSampling(
  providerName: string,
  request: Pick<ModelRequest, 'model' | 'sampling'>,
  supported: readonly SamplingSetting[],
): void {
  const set = Object.entries(request.sampling ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name as SamplingSetting);
  const refused = set.filter((name) => !supported.includes(name));
  if (refused.length === 0) return;
  throw samplingRefusal(
    providerName,
    request.model,
    refused.join(', ') +
      (supported.length > 0 ? ` (it takes ${supported.join(', ')})` : ' (it takes no sampling settings)'),
  );
}

/** The refusal of a setting `what` names (and says why); non-retryable, since no attempt can succeed. */
export function samplingRefusal(providerName: string, model: string, what: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: FailureType.ModelSettingUnsupported,
    message: `${providerName}/${model} does not take ${what}; remove it from the run, the registry entry or the ask_model call.`,
    nonRetryable: true,
  });
}
