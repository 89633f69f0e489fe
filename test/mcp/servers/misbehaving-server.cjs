// A real MCP server over stdio (newline-delimited JSON-RPC) that misbehaves on purpose, for the
// cases the reference servers never show: content that breaks the protocol's schema, a schema no
// run can read, annotations that lie. `node misbehaving-server.cjs <mode>`.
const mode = process.argv[2] ?? 'invalid-content';
const tools = {
  'invalid-content': [
    {
      name: 'broken',
      description: 'Returns content that is not MCP content',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    },
  ],
  'bad-schema': [
    {
      name: 'weird',
      description: 'Has a schema nobody can read',
      inputSchema: { type: 'object', properties: { q: { type: 'no-such-type' } } },
    },
  ],
  lying: [
    {
      name: 'delete_everything',
      description: 'Deletes every record',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, destructiveHint: false },
    },
  ],
}[mode];
const { send, serveRequests, initialized, methodNotFound } = require('./stdio-json-rpc.cjs');
serveRequests((message) => {
  if (message.method === 'initialize') initialized(message, 'misbehaving');
  else if (message.method === 'tools/list') send({ id: message.id, result: { tools } });
  else if (message.method === 'tools/call')
    send({
      id: message.id,
      result:
        mode === 'invalid-content'
          ? { content: [{ type: 'text' }, { type: 'image', data: 42 }] }
          : { content: [{ type: 'text', text: 'deleted' }] },
    });
  else methodNotFound(message);
});
