import type { temporal } from '@temporalio/proto';

/**
 * A local activity's marker: its type (from the marker's data, which Temporal's core writes as
 * plain JSON) and its result or failure. Undefined for any other event, or data that does not read.
 */
export function localActivityOf(
  event: temporal.api.history.v1.IHistoryEvent,
): ({ type: string } & ({ payloads: temporal.api.common.v1.IPayload[] } | { error: string })) | undefined {
  const marker = event.markerRecordedEventAttributes;
  if (marker?.markerName !== 'core_local_activity') return undefined;
  const data = marker.details?.['data']?.payloads?.[0]?.data;
  if (!data) return undefined;
  let type: unknown;
  try {
    type = (JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: unknown }).activity_type;
  } catch {
    return undefined;
  }
  if (typeof type !== 'string') return undefined;
  if (marker.failure) return { type, error: marker.failure.message ?? 'failed' };
  return { type, payloads: marker.details?.['result']?.payloads ?? [] };
}
