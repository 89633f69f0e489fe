import { defaultPayloadConverter, rawValueTypeInfo, type RawValue } from '@temporalio/common';
import { defineSignal, type SignalDefinition } from '@temporalio/workflow';

/**
 * What a signal payload becomes when its bytes cannot be decoded (not JSON, an encoding no
 * converter knows): a value that no signal's schema accepts, so the handler refuses it.
 */
export const UNREADABLE_PAYLOAD: unique symbol = Symbol('unreadable signal payload');

/**
 * The workflow side of a signal: the SDK hands its handler the payload undecoded. Decoding
 * happens before any handler runs, so a payload the SDK's converter throws on would otherwise
 * fail every replay of the workflow task (the signal is already in history) and wedge the run.
 * Clients keep sending with the plain definitions in messages.ts; the wire format is the same.
 */
export function rawSignal(name: string): SignalDefinition<[RawValue?]> {
  return defineSignal<[RawValue?]>(name, { typeInfo: { inputTypes: [rawValueTypeInfo] } });
}

/**
 * The signal's value, decoded as the SDK would have (JSON, null, binary), without ever throwing:
 * undefined for a signal sent with no payload, UNREADABLE_PAYLOAD for bytes that do not decode.
 * Runs use Temporal's default payload converter (codecs such as encryption run before this).
 */
export function decodeSignalPayload(raw: RawValue | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return defaultPayloadConverter.fromPayload(raw.payload);
  } catch {
    return UNREADABLE_PAYLOAD;
  }
}
