import { createHmac, timingSafeEqual } from 'node:crypto';

/** The headers a trigger request carries (lower-case, as Node reads them). */
export const SIGNATURE_HEADER = 'x-thoughtline-signature';
export const TIMESTAMP_HEADER = 'x-thoughtline-timestamp';
export const DELIVERY_HEADER = 'x-thoughtline-delivery';

/** A timestamp further than this from the server's clock, either way, is refused: a replay window of 5 minutes. */
export const DELIVERY_WINDOW_MS = 5 * 60 * 1000;

/** What a signature that does not match says (the same for a trigger name this server does not know). */
export const SIGNATURE_MISMATCH = `${SIGNATURE_HEADER} does not match the body and timestamp under this trigger's secret.`;

/** A delivery id: the sender's, kept in the run's id, so a short, plain one. */
const DELIVERY_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * `sha256=` and the hex HMAC-SHA256 of `timestamp + "." + deliveryId + "." + rawBody` under the
 * trigger's secret. The delivery id is signed too: were it not, a captured delivery could be sent
 * again within the window under a fresh id and start a second run.
 */
export function signDelivery(
  secret: Buffer | string,
  timestamp: string,
  deliveryId: string,
  rawBody: Buffer | string,
): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${deliveryId}.`).update(rawBody);
  return `sha256=${mac.digest('hex')}`;
}

export type DeliveryCheck = { ok: true; deliveryId: string } | { ok: false; problem: string };

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Whether a request is a fresh delivery signed with `secret` (see signDelivery): the signature
 * compared in constant time, the timestamp (Unix seconds) within DELIVERY_WINDOW_MS of `nowMs`, the delivery id well
 * formed. Pure; the problem text says which check failed and never echoes the expected signature.
 */
export function verifyDelivery(
  secret: Buffer,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
  nowMs: number,
): DeliveryCheck {
  const signature = header(headers, SIGNATURE_HEADER);
  const timestamp = header(headers, TIMESTAMP_HEADER);
  const deliveryId = header(headers, DELIVERY_HEADER);
  if (signature === undefined || timestamp === undefined || deliveryId === undefined)
    return {
      ok: false,
      problem: `A trigger request carries ${SIGNATURE_HEADER}, ${TIMESTAMP_HEADER} and ${DELIVERY_HEADER}, once each.`,
    };
  if (!/^[0-9]{1,12}$/.test(timestamp))
    return { ok: false, problem: `${TIMESTAMP_HEADER} is the time of signing in whole seconds since 1970.` };
  if (Math.abs(nowMs - Number(timestamp) * 1000) > DELIVERY_WINDOW_MS)
    return {
      ok: false,
      problem: `${TIMESTAMP_HEADER} is more than ${DELIVERY_WINDOW_MS / 60_000} minutes from the server's clock; sign each delivery when you send it.`,
    };
  if (!DELIVERY_ID.test(deliveryId))
    return { ok: false, problem: `${DELIVERY_HEADER} is 1–128 letters, digits, ".", "_", ":" or "-".` };
  const expected = Buffer.from(signDelivery(secret, timestamp, deliveryId, rawBody));
  const given = Buffer.from(signature);
  // timingSafeEqual needs equal lengths; a wrong length is refused at once, which says nothing of the secret.
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, problem: SIGNATURE_MISMATCH };
  return { ok: true, deliveryId };
}
