import { createHash } from 'node:crypto';
import type { FakeRequestBody } from './recorded-request';

/**
 * The Messages API's prompt cache, simulated closely enough to measure what a request shape
 * costs. A request is read as the API orders it (tools, then system, then messages), one segment
 * per tool or content block; each segment's prefix has a running hash (model included, cache
 * markers excluded) and a running token count. Accounting one request:
 * - read: the longest prefix, ending at a breakpoint or at most `lookbackBlocks` segments before
 *   one, that an earlier request wrote and that has not expired; reading it renews its TTL;
 * - write: the prefix up to each breakpoint past the read, when it holds at least `minTokens`;
 *   `cache_creation_input_tokens` is what the last written prefix adds to the read one;
 * - `input_tokens`: the rest.
 * A top-level `cache_control` (automatic caching) counts as a breakpoint on the last block.
 * Tokens are estimated as the offline model does (a segment's JSON length / 4, rounded up), not
 * by a tokenizer: the figures are consistent with each other, not with a real bill.
 */
export interface PromptCacheOptions {
  /** The shortest prefix, in tokens, that is written; default 1,024 (Claude Sonnet's minimum). */
  minTokens?: number;
  /** How long a prefix stays after it is written or read, in ms; default 5 minutes. A `ttl: '1h'` marker keeps one hour. */
  ttlMs?: number;
  /** Segments looked back from each breakpoint for an earlier hit; default 20, as the API documents. */
  lookbackBlocks?: number;
  /** The clock; tests pass their own to expire entries. */
  now?: () => number;
}

/** The input side of one reply's usage, as the API reports it. */
export interface PromptCacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** Sums over every request accounted so far. */
export interface PromptCacheTotals {
  requests: number;
  /** Uncached input (`input_tokens`). */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
}

export interface FakePromptCache {
  /** Reads and writes the cache for one request and returns its input usage; adds it to the totals. */
  account(body: FakeRequestBody): PromptCacheUsage;
  /** Adds a reply's output tokens to the totals. */
  countOutput(tokens: number): void;
  /** A copy of the totals so far. */
  totals(): PromptCacheTotals;
}

export const DEFAULT_MIN_CACHEABLE_TOKENS = 1024;
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;
const ONE_HOUR_MS = 60 * 60_000;
const DEFAULT_LOOKBACK_BLOCKS = 20;

/** The fake's token estimate: 4 characters of JSON a token, rounded up (as the offline model counts). */
export const estimateTokens = (value: unknown): number => Math.ceil((JSON.stringify(value) ?? '').length / 4);

type Json = Record<string, unknown>;

interface Segment {
  /** What is hashed: where the block sits and the block without its cache marker. */
  key: unknown;
  tokens: number;
  /** The breakpoint's TTL in ms when the block carries `cache_control`. */
  breakpointTtl?: number;
}

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function withoutMarker(block: Json): Json {
  const { cache_control: _marker, ...rest } = block;
  return rest;
}

function ttlOf(marker: unknown, defaultTtl: number): number | undefined {
  if (!isRecord(marker)) return undefined;
  return marker['ttl'] === '1h' ? ONE_HOUR_MS : defaultTtl;
}

const blocksOf = (content: unknown): Json[] =>
  typeof content === 'string'
    ? [{ type: 'text', text: content }]
    : Array.isArray(content)
      ? content.filter(isRecord)
      : [];

/** The request as the API caches it: tools, system, then every message's blocks, in order. */
function segmentsOf(body: FakeRequestBody, defaultTtl: number): Segment[] {
  const segments: Segment[] = [];
  const add = (where: unknown, block: Json) => {
    const bare = withoutMarker(block);
    const ttl = ttlOf(block['cache_control'], defaultTtl);
    segments.push({ key: [where, bare], tokens: estimateTokens(bare), ...(ttl ? { breakpointTtl: ttl } : {}) });
  };
  for (const tool of body.tools ?? []) add('tool', tool);
  for (const block of blocksOf(body.system)) add('system', block);
  body.messages.forEach((message, i) => {
    for (const block of blocksOf(message.content)) add([message.role, i], block);
  });
  // Automatic caching: the API moves one breakpoint to the last block that can carry one.
  const auto = ttlOf(body['cache_control'], defaultTtl);
  if (auto !== undefined) {
    const target = [...segments].reverse().find((s) => {
      const block = (s.key as [unknown, Json])[1];
      return block['type'] !== 'thinking' && block['type'] !== 'redacted_thinking';
    });
    if (target !== undefined && target.breakpointTtl === undefined) target.breakpointTtl = auto;
  }
  return segments;
}

export function createFakePromptCache(options: PromptCacheOptions = {}): FakePromptCache {
  const minTokens = options.minTokens ?? DEFAULT_MIN_CACHEABLE_TOKENS;
  const defaultTtl = options.ttlMs ?? DEFAULT_CACHE_TTL_MS;
  const lookback = options.lookbackBlocks ?? DEFAULT_LOOKBACK_BLOCKS;
  const now = options.now ?? Date.now;
  /** Prefix hash → when it expires and the TTL it is renewed with. */
  const written = new Map<string, { expiresAt: number; ttl: number }>();
  const totals: PromptCacheTotals = {
    requests: 0,
    inputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
  };

  function account(body: FakeRequestBody): PromptCacheUsage {
    const at = now();
    const segments = segmentsOf(body, defaultTtl);
    const hashes: string[] = [];
    const upTo: number[] = [];
    let hash = createHash('sha256').update(JSON.stringify(body.model)).digest('hex');
    let sum = 0;
    for (const segment of segments) {
      hash = createHash('sha256').update(hash).update(JSON.stringify(segment.key)).digest('hex');
      sum += segment.tokens;
      hashes.push(hash);
      upTo.push(sum);
    }
    const breakpoints = segments.flatMap((s, i) => (s.breakpointTtl === undefined ? [] : [i]));
    const live = (i: number) => {
      const entry = written.get(hashes[i] ?? '');
      return entry !== undefined && entry.expiresAt > at ? entry : undefined;
    };
    // Read: the longest live prefix within the lookback window of some breakpoint.
    let readEnd = -1;
    for (const b of breakpoints) {
      for (let i = b; i >= Math.max(0, b - lookback) && i > readEnd; i--) {
        if (live(i) !== undefined) {
          readEnd = i;
          break;
        }
      }
    }
    const hit = readEnd >= 0 ? live(readEnd) : undefined;
    if (hit !== undefined) hit.expiresAt = at + hit.ttl;
    // Write: every breakpoint past the read whose prefix is long enough.
    let writeEnd = readEnd;
    for (const b of breakpoints) {
      const ttl = segments[b]?.breakpointTtl ?? defaultTtl;
      if (b <= readEnd || (upTo[b] ?? 0) < minTokens) continue;
      written.set(hashes[b] ?? '', { expiresAt: at + ttl, ttl });
      writeEnd = Math.max(writeEnd, b);
    }
    const read = readEnd >= 0 ? (upTo[readEnd] ?? 0) : 0;
    const write = (writeEnd >= 0 ? (upTo[writeEnd] ?? 0) : 0) - read;
    const usage = {
      input_tokens: sum - read - write,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: write,
    };
    totals.requests += 1;
    totals.inputTokens += usage.input_tokens;
    totals.cacheReadTokens += usage.cache_read_input_tokens;
    totals.cacheWriteTokens += usage.cache_creation_input_tokens;
    return usage;
  }

  return {
    account,
    countOutput(tokens) {
      totals.outputTokens += tokens;
    },
    totals: () => ({ ...totals }),
  };
}

/** The API's maximum of `cache_control` blocks in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * What the API answers 400 to about cache markers, or undefined: more than four, or one on a
 * thinking block or an empty text block.
 */
export function breakpointProblem(body: FakeRequestBody): string | undefined {
  const marked: Json[] = [
    ...(body.tools ?? []),
    ...blocksOf(body.system),
    ...body.messages.flatMap((m) => blocksOf(m.content)),
  ].filter((block) => isRecord(block['cache_control']));
  if (marked.length > MAX_CACHE_BREAKPOINTS)
    return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${marked.length}.`;
  for (const block of marked) {
    if (block['type'] === 'thinking' || block['type'] === 'redacted_thinking')
      return `cache_control cannot be set on ${String(block['type'])} blocks`;
    if (block['type'] === 'text' && block['text'] === '') return 'cache_control cannot be set for empty text blocks';
  }
  return undefined;
}
