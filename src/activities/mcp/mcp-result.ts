import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '../../tools/tool-error';

/** A block that is not text, as the chain keeps it: what it is and how big, never its bytes. */
type Reference = { type: string; mimeType?: string; bytes?: number; uri?: string; name?: string; text?: string };

/**
 * Turns an MCP tool result into one JSON-safe observation. Text blocks join into `text`
 * (each cut just past `maxChars` first, so a 5 MB reply never travels further and the activity
 * still sees it was over the limit and marks the result truncated); structured content is
 * kept as is; images, audio and blobs become references (type, MIME type, size); resource links
 * and embedded text resources keep their URI and text. A result with only text is that text.
 * `isError` results become a ToolError the model reads: the server answered, so a retry would not help.
 */
export function mcpObservation(result: CallToolResult, limit: number): unknown {
  const maxChars = limit + 1;
  const texts: string[] = [];
  const references: Reference[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        texts.push(block.text.length > maxChars ? block.text.slice(0, maxChars) : block.text);
        break;
      case 'image':
      case 'audio':
        references.push({ type: block.type, mimeType: block.mimeType, bytes: base64Bytes(block.data) });
        break;
      case 'resource_link':
        references.push({
          type: 'resource_link',
          uri: block.uri,
          name: block.name,
          ...(block.mimeType ? { mimeType: block.mimeType } : {}),
        });
        break;
      case 'resource': {
        const r = block.resource;
        references.push(
          'text' in r && typeof r.text === 'string'
            ? {
                type: 'resource',
                uri: r.uri,
                ...(r.mimeType ? { mimeType: r.mimeType } : {}),
                text: r.text.slice(0, maxChars),
              }
            : {
                type: 'resource',
                uri: r.uri,
                ...(r.mimeType ? { mimeType: r.mimeType } : {}),
                bytes: base64Bytes('blob' in r && typeof r.blob === 'string' ? r.blob : ''),
              },
        );
        break;
      }
      default:
        references.push({ type: String((block as { type?: unknown }).type ?? 'unknown') });
    }
  }
  const text = texts.join('\n');
  if (result.isError)
    throw new ToolError(text || 'The MCP tool reported an error without a message.', { retryable: false });
  if (result.structuredContent === undefined && references.length === 0) return text;
  return {
    ...(text ? { text } : {}),
    ...(result.structuredContent !== undefined ? { structuredContent: withoutBlobs(result.structuredContent, 0) } : {}),
    ...(references.length ? { content: references } : {}),
  };
}

/** Decoded size of base64 data, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** Deeper than this, structured content is left as is: the activity's size cut bounds it anyway. */
const MAX_BLOB_DEPTH = 16;

/**
 * Structured content may carry the same blocks as `content` (a server echoing its images or files
 * as base64): a `blob`, or the `data` of an image or audio block, becomes its size.
 */
function withoutBlobs(value: unknown, depth: number): unknown {
  if (depth > MAX_BLOB_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withoutBlobs(item, depth + 1));
  const record = value as Record<string, unknown>;
  const media = record['type'] === 'image' || record['type'] === 'audio';
  return Object.fromEntries(
    Object.entries(record).map(([key, item]) =>
      typeof item === 'string' && (key === 'blob' || (media && key === 'data'))
        ? [`${key}Bytes`, base64Bytes(item)]
        : [key, withoutBlobs(item, depth + 1)],
    ),
  );
}
