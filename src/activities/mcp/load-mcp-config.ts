import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { McpConfig } from '../../shared/mcp-config';

export class InvalidMcpConfigError extends Error {
  override readonly name = 'InvalidMcpConfigError';
}

/** Most a config file may hold; desktop-client files are a few KB. */
const MAX_CONFIG_BYTES = 1_000_000;

/** Parses an MCP config object, with every problem named by its path. */
export function parseMcpConfig(value: unknown, source = 'MCP config'): McpConfig {
  const parsed = McpConfig.safeParse(value);
  if (!parsed.success) throw new InvalidMcpConfigError(`${source} is not valid:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Reads and parses a JSON file in the desktop-client format (`{ "mcpServers": { … } }`). */
export async function loadMcpConfig(file: string): Promise<McpConfig> {
  const text = await readFile(file, 'utf8').catch((err: Error) => {
    throw new InvalidMcpConfigError(`Cannot read the MCP config ${file}: ${err.message}`);
  });
  if (text.length > MAX_CONFIG_BYTES)
    throw new InvalidMcpConfigError(`The MCP config ${file} is over ${MAX_CONFIG_BYTES} bytes.`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InvalidMcpConfigError(`The MCP config ${file} is not JSON: ${(err as Error).message}`);
  }
  return parseMcpConfig(json, `The MCP config ${file}`);
}
