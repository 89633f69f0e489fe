import { readRegularFile } from '../../files/read-regular-file';
import { RegularFileError } from '../../files/regular-file-error';
import { z } from 'zod';
import { McpConfig } from '../../domain/tools/mcp-config';

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
  let text: string;
  try {
    text = readRegularFile(file, MAX_CONFIG_BYTES).toString('utf8');
  } catch (err) {
    if (!(err instanceof RegularFileError)) throw err;
    throw new InvalidMcpConfigError(
      err.problem === 'too_large'
        ? `The MCP config ${file} is over ${MAX_CONFIG_BYTES} bytes.`
        : `Cannot read the MCP config ${file}: ${err.message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InvalidMcpConfigError(`The MCP config ${file} is not JSON: ${(err as Error).message}`);
  }
  return parseMcpConfig(json, `The MCP config ${file}`);
}
