import { ed25519 } from '@noble/curves/ed25519';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { z } from 'zod';
import { canonicalJson } from './arguments-hash';

/**
 * Signed decisions: `thoughtline serve` signs each approval, answer and steering instruction with
 * an Ed25519 key, and a run whose input lists the public keys (`AgentInput.signedDecisions`)
 * refuses a decision whose signature does not verify, so raw Temporal access cannot forge one.
 * Pure and sandbox-safe (no Buffer, no crypto module, no clock): the workflow passes its own time.
 */

/** The decisions a run may require signed. */
export const SignedDecisionKind = z.enum(['approval', 'answer', 'steer', 'budget']);
export type SignedDecisionKind = z.infer<typeof SignedDecisionKind>;

/** The signature carried by a decision payload; `value` signs the claims, never itself. */
export const DecisionSignature = z.object({
  keyId: z.string().min(1).max(200),
  /** When the server signed, ISO 8601 UTC (`2026-11-22T15:04:02.000Z`). */
  issuedAt: z.string().min(1).max(40),
  /** base64url (no padding) of the 64-byte Ed25519 signature. */
  value: z.string().min(1).max(200),
});
export type DecisionSignature = z.infer<typeof DecisionSignature>;

/**
 * The keys a run trusts (`AgentInput.signedDecisions`). `required` (absent: true) refuses every
 * unsigned decision; `false` accepts them, but only a signed one's roles count toward a rule
 * (decision-roles.ts): what `serve --signing-keys` without `--require-signatures` gives its runs.
 */
export const SignedDecisionPolicy = z.object({
  publicKeys: z.record(z.string().min(1), z.string().min(1)),
  required: z.boolean().optional(),
});
export type SignedDecisionPolicy = z.infer<typeof SignedDecisionPolicy>;

/** A signature older than this (by the run's clock) is refused: a captured decision cannot be replayed later. */
export const DEFAULT_SIGNATURE_MAX_AGE_MS = 10 * 60_000;
/** A signature issued further ahead of the run's clock than this is refused (clock skew allowance). */
export const MAX_SIGNATURE_FUTURE_MS = 60_000;

/**
 * Prefixed to the canonical claims, so a decision signature can never pass as any other signed
 * message. v2 (issue 78): every kind names what it answers (approval and answer: the call id;
 * budget: the pause id; steer: a nonce), so a v1 signature never verifies here.
 */
const DOMAIN = 'thoughtline.signed-decision.v2\n';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

const Roles = z.array(z.string()).default([]);
/** What each kind's claims are read from; the payload schemas in approval.ts and people.ts carry the same fields. */
const ClaimSources = {
  approval: z.object({
    callId: z.string(),
    approved: z.boolean(),
    argumentsHash: z.string(),
    reason: z.string().optional(),
    by: z.object({ id: z.string(), roles: Roles }),
    /** A lost `once` call's settlement (approval.ts): signed too, so nobody turns "run again" into "mark done". */
    markDone: z.boolean().optional(),
    result: z.string().optional(),
  }),
  /** The question answered is named: a signed answer cannot answer the run's next question. */
  answer: z.object({ text: z.string(), by: z.string(), roles: Roles, callId: z.string().min(1) }),
  /** Steering answers no pause: a nonce the server draws makes each signed instruction one of a kind. */
  steer: z.object({ text: z.string(), by: z.string(), roles: Roles, nonce: z.string().min(1) }),
  /** A raise of a paused budget (run/budget-pause.ts): every amount, the stop and the pause it answers are signed. */
  budget: z.object({
    pauseId: z.string().min(1),
    tokens: z.number().optional(),
    costUsd: z.number().optional(),
    iterations: z.number().optional(),
    stop: z.boolean().optional(),
    note: z.string().optional(),
    by: z.object({ id: z.string(), roles: Roles }),
  }),
} as const;

/**
 * A verified decision: `decisionId` names it whatever key signed it (the SHA-256 of its claims
 * without the key id, 32 hex digits), so a run can refuse its second use; `issuedMs` is when it
 * was signed, which bounds how long the run must remember it.
 */
export type VerifyDecisionResult = { ok: true; decisionId: string; issuedMs: number } | { ok: false; reason: string };

const textHash = (text: string): string => `sha256:${bytesToHex(sha256(utf8ToBytes(text)))}`;

/**
 * The claims a signature covers: the kind, the run, who decided with which roles, when, with
 * which key, and what was decided (for answers and steering, the SHA-256 of the text). Undefined
 * when the payload lacks a field the kind needs. Absent optional fields are left out, not null.
 */
export function decisionClaims(
  kind: SignedDecisionKind,
  workflowId: string,
  payload: unknown,
  keyId: string,
  issuedAt: string,
): Record<string, unknown> | undefined {
  const common = { kind, workflowId, issuedAt, keyId };
  if (kind === 'approval') {
    const p = ClaimSources.approval.safeParse(payload);
    if (!p.success) return undefined;
    const { callId, approved, argumentsHash, reason, by, markDone, result } = p.data;
    return {
      ...common,
      callId,
      approved,
      argumentsHash,
      ...(reason !== undefined ? { reason } : {}),
      by: { id: by.id, roles: by.roles },
      ...(markDone !== undefined ? { markDone } : {}),
      ...(result !== undefined ? { resultHash: textHash(result) } : {}),
    };
  }
  if (kind === 'answer') {
    const p = ClaimSources.answer.safeParse(payload);
    if (!p.success) return undefined;
    const { text, by, roles, callId } = p.data;
    return { ...common, callId, textHash: textHash(text), by: { id: by, roles } };
  }
  if (kind === 'budget') {
    const p = ClaimSources.budget.safeParse(payload);
    if (!p.success) return undefined;
    const { pauseId, tokens, costUsd, iterations, stop, note, by } = p.data;
    return {
      ...common,
      pauseId,
      ...(tokens !== undefined ? { tokens } : {}),
      ...(costUsd !== undefined ? { costUsd } : {}),
      ...(iterations !== undefined ? { iterations } : {}),
      ...(stop !== undefined ? { stop } : {}),
      ...(note !== undefined ? { noteHash: textHash(note) } : {}),
      by: { id: by.id, roles: by.roles },
    };
  }
  const p = ClaimSources.steer.safeParse(payload);
  if (!p.success) return undefined;
  const { text, by, roles, nonce } = p.data;
  return { ...common, nonce, textHash: textHash(text), by: { id: by, roles } };
}

/** The exact bytes signed: a domain prefix and the claims as canonical JSON (sorted keys). */
export function decisionMessage(claims: Record<string, unknown>): Uint8Array {
  return utf8ToBytes(DOMAIN + canonicalJson(claims));
}

/** Most signatures one decision may carry (one per key of the server's keyring). */
export const MAX_DECISION_SIGNATURES = 8;

/**
 * A payload's `signature` field: one signature, or one per key of the server's keyring (newest
 * first), so that during a key rotation runs started before and after the new key both verify.
 */
export const DecisionSignatureField = z.union([
  DecisionSignature,
  z.array(DecisionSignature).min(1).max(MAX_DECISION_SIGNATURES),
]);
export type DecisionSignatureField = z.infer<typeof DecisionSignatureField>;

/** A private signing key: its id and the 32-byte Ed25519 seed. */
export interface DecisionSigningKey {
  keyId: string;
  seed: Uint8Array;
}

/**
 * The payload with `signature` added: signed with `keys` (one signature, or a list when several
 * keys are given, in their order). Throws when the payload lacks what the kind's claims need (a
 * server bug, not a person's).
 */
export function signDecision<T extends object>(
  kind: SignedDecisionKind,
  workflowId: string,
  payload: T,
  keys: DecisionSigningKey | readonly DecisionSigningKey[],
  issuedAt: string,
): T & { signature: DecisionSignatureField } {
  const list = 'keyId' in keys ? [keys] : keys;
  if (list.length === 0 || list.length > MAX_DECISION_SIGNATURES)
    throw new RangeError(`Sign with 1 to ${MAX_DECISION_SIGNATURES} keys, not ${list.length}.`);
  const signatures = list.map((key) => {
    const claims = decisionClaims(kind, workflowId, payload, key.keyId, issuedAt);
    if (!claims) throw new TypeError(`The ${kind} payload lacks a field its signature must cover.`);
    return { keyId: key.keyId, issuedAt, value: base64UrlEncode(ed25519.sign(decisionMessage(claims), key.seed)) };
  });
  return { ...payload, signature: signatures.length === 1 ? signatures[0]! : signatures };
}

/**
 * Whether `payload` carries a valid signature for this run, by a key the policy lists, issued
 * within `maxAgeMs` before `nowMs` (and at most a minute after it). With several signatures, one
 * by a listed key that verifies is enough. Never throws: anything it cannot read is
 * `{ ok: false, reason }`, with a reason a person can act on.
 */
export function verifyDecisionSignature(
  kind: SignedDecisionKind,
  workflowId: string,
  payload: unknown,
  policy: SignedDecisionPolicy,
  nowMs: number,
  maxAgeMs: number = DEFAULT_SIGNATURE_MAX_AGE_MS,
): VerifyDecisionResult {
  try {
    const raw =
      payload !== null && typeof payload === 'object' ? (payload as { signature?: unknown }).signature : undefined;
    if (raw === undefined || raw === null)
      return refuse(
        `this run requires signed decisions and the ${kind} carries no signature; send it through thoughtline serve`,
      );
    const parsed = DecisionSignatureField.safeParse(raw);
    if (!parsed.success)
      return refuse(
        `the signature does not parse (expected { keyId, issuedAt, value }, or a list of 1 to ${MAX_DECISION_SIGNATURES})`,
      );
    const signatures = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
    const trusted = signatures.filter((sig) => Object.hasOwn(policy.publicKeys, sig.keyId));
    if (trusted.length === 0) {
      const named = signatures.map((sig) => `"${sig.keyId}"`).join(', ');
      return refuse(
        `the signing key ${named} is not one this run trusts (${Object.keys(policy.publicKeys).join(', ') || 'none'})`,
      );
    }
    let firstFailure: VerifyDecisionResult | undefined;
    for (const sig of trusted) {
      const result = verifyOne(kind, workflowId, payload, policy.publicKeys[sig.keyId]!, sig, nowMs, maxAgeMs);
      if (result.ok) return result;
      firstFailure ??= result;
    }
    return firstFailure!;
  } catch (err) {
    return refuse(`the signature could not be checked (${err instanceof Error ? err.message : 'unreadable'})`);
  }
}

function verifyOne(
  kind: SignedDecisionKind,
  workflowId: string,
  payload: unknown,
  publicKeyText: string,
  sig: DecisionSignature,
  nowMs: number,
  maxAgeMs: number,
): VerifyDecisionResult {
  const { keyId, issuedAt, value } = sig;
  const publicKey = base64UrlDecode(publicKeyText);
  if (!publicKey || publicKey.length !== 32)
    return refuse(`the run's public key "${keyId}" is not 32 bytes of base64url`);
  const signature = base64UrlDecode(value);
  if (!signature) return refuse('the signature is not base64url');
  if (signature.length !== 64) return refuse(`the signature has ${signature.length} bytes, not 64`);
  const issuedMs = ISO_UTC.test(issuedAt) ? Date.parse(issuedAt) : NaN;
  if (!Number.isFinite(issuedMs)) return refuse(`the signature's issuedAt "${issuedAt}" is not an ISO 8601 UTC time`);
  if (issuedMs < nowMs - maxAgeMs)
    return refuse(
      `the signature was issued at ${issuedAt}, more than ${Math.round(maxAgeMs / 1000)} s ago; decide again`,
    );
  if (issuedMs > nowMs + MAX_SIGNATURE_FUTURE_MS)
    return refuse(`the signature was issued at ${issuedAt}, in the future; check the server's clock`);
  const claims = decisionClaims(kind, workflowId, payload, keyId, issuedAt);
  if (!claims) return refuse(`the ${kind} lacks a field its signature must cover`);
  if (!ed25519.verify(signature, decisionMessage(claims), publicKey, { zip215: false })) {
    return refuse(`the signature does not match this ${kind} for run ${workflowId}`);
  }
  return { ok: true, decisionId: decisionIdOf(claims), issuedMs };
}

const refuse = (reason: string): VerifyDecisionResult => ({ ok: false, reason });

/** The same for every key that signs one decision: the claims without `keyId`. */
function decisionIdOf(claims: Record<string, unknown>): string {
  const { keyId: _keyId, ...decision } = claims;
  return bytesToHex(sha256(decisionMessage(decision))).slice(0, 32);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url without padding (RFC 4648 §5). */
export function base64UrlEncode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += ALPHABET[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

/** Strict base64url decoding: undefined for padding, other alphabets, or an impossible length. */
export function base64UrlDecode(text: string): Uint8Array | undefined {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const char of text) {
    value = ((value << 6) | ALPHABET.indexOf(char)) & 0x3fff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  // Leftover bits must be zero, so each byte string has exactly one encoding.
  if ((value & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}
