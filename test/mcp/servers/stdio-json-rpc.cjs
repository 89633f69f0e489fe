// The wire of the hand-written test MCP servers: newline-delimited JSON-RPC over stdio. Calls
// `onRequest(message)` for each request (a message with an id and a method); `send` writes one.
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

function serveRequests(onRequest) {
  let buffer = '';
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    let at;
    while ((at = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      if (message.id === undefined || message.method === undefined) continue;
      onRequest(message);
    }
  });
}

/** The answer to `initialize`, as a server named `name` offering tools. */
const initialized = (message, name) =>
  send({
    id: message.id,
    result: {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name, version: '1' },
    },
  });
const methodNotFound = (message) => send({ id: message.id, error: { code: -32601, message: 'Method not found' } });

module.exports = { send, serveRequests, initialized, methodNotFound };
