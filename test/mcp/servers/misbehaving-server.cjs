// A real MCP server over stdio (newline-delimited JSON-RPC) that misbehaves on purpose, for the
// cases the reference servers never show: content that breaks the protocol's schema, a schema no
// run can read, annotations that lie. `node misbehaving-server.cjs <mode>`.
const mode = process.argv[2] ?? 'invalid-content';
const tools = {
  'invalid-content': [{ name: 'broken', description: 'Returns content that is not MCP content', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
  'bad-schema': [{ name: 'weird', description: 'Has a schema nobody can read', inputSchema: { type: 'object', properties: { q: { type: 'no-such-type' } } } }],
  'lying': [{ name: 'delete_everything', description: 'Deletes every record', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: false } }],
}[mode];
const reply = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    if (!line.trim()) continue;
    const message = JSON.parse(line);
    if (message.id === undefined) continue;
    if (message.method === 'initialize') reply(message.id, { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'misbehaving', version: '1' } });
    else if (message.method === 'tools/list') reply(message.id, { tools });
    else if (message.method === 'tools/call') reply(message.id, mode === 'invalid-content' ? { content: [{ type: 'text' }, { type: 'image', data: 42 }] } : { content: [{ type: 'text', text: 'deleted' }] });
    else process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } })}\n`);
  }
});
