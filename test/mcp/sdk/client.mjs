// The official MCP TypeScript SDK client against neon-ai-tools-mcp (issue #7).
//
// Spawns the program with StdioClientTransport, as an MCP host would, then
// initializes, lists the tools and calls them.  Prints TAP; exits 1 when an
// assertion failed.  test/t/005_mcp_sdk.pl runs it against a fresh cluster
// that holds the table below; by hand:
//
//   NAT_MCP_PROGRAM=/usr/lib/postgresql/15/bin/neon-ai-tools-mcp \
//   NAT_MCP_CONNINFO='host=/tmp port=5432 dbname=postgres' node client.mjs
//
//   CREATE TABLE mcp_items (id int PRIMARY KEY, name text, price numeric);
//   INSERT INTO mcp_items VALUES (1, 'apple', 1.25), (2, 'pear', 2.5),
//     (3, 'plum', 123456789012345678901234567890.123456789);
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const program = process.env.NAT_MCP_PROGRAM || 'neon-ai-tools-mcp';
const conninfo = process.env.NAT_MCP_CONNINFO;
if (!conninfo) {
  console.log('1..0 # SKIP NAT_MCP_CONNINFO is not set');
  process.exit(0);
}

let n = 0;
let failed = 0;
const report = (ok, name, err) => {
  n += 1;
  console.log(`${ok ? 'ok' : 'not ok'} ${n} - ${name}`);
  if (!ok) {
    failed += 1;
    for (const line of String(err && err.stack ? err.stack : err).split('\n').slice(0, 12)) {
      console.log(`#   ${line}`);
    }
  }
};
// Run one named check; a thrown error (assertion or SDK) fails it.
const check = async (name, fn) => {
  try {
    await fn();
    report(true, name);
  } catch (err) {
    report(false, name, err);
  }
};

// Never hang a test run.
const watchdog = setTimeout(() => {
  report(false, 'the session finished within 60 s', 'timed out');
  console.log(`1..${n}`);
  process.exit(1);
}, 60000);

const transport = new StdioClientTransport({
  command: program,
  args: [conninfo],
  env: { PATH: process.env.PATH || '/usr/bin:/bin', LANG: 'C.UTF-8' },
  stderr: 'pipe',
});
let stderr = '';
transport.stderr.on('data', (chunk) => { stderr += chunk; });
const client = new Client({ name: 'neon-ai-tools-sdk-test', version: '1.0.0' });

let tools = [];
const call = (name, args) => client.callTool({ name, arguments: args });

await check('the SDK client connects (initialize, notifications/initialized)', async () => {
  await client.connect(transport);
  const info = client.getServerVersion();
  assert.equal(info.name, 'neon-ai-tools-mcp');
  assert.match(info.version, /^\d+\.\d+/);
  assert.deepEqual(client.getServerCapabilities().tools, { listChanged: true });
  assert.match(client.getInstructions() || '', /list_tables/);
});

await check('ping answers', async () => {
  assert.deepEqual(await client.ping(), {});
});

await check('tools/list gives every tool with a JSON Schema', async () => {
  ({ tools } = await client.listTools());
  const names = tools.map((t) => t.name);
  for (const name of ['select_query', 'insert_data', 'update_data', 'delete_data',
    'execute_sql', 'list_tables', 'describe_table', 'explain_query']) {
    assert.ok(names.includes(name), `${name} is listed`);
  }
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', `${t.name}: inputSchema is an object schema`);
    assert.equal(typeof t.inputSchema.properties, 'object', `${t.name}: has properties`);
    assert.equal(typeof t.description, 'string');
    assert.equal(typeof t.annotations.readOnlyHint, 'boolean', `${t.name}: annotations`);
    // the envelope schema: the SDK then checks every answer's
    // structuredContent against it in callTool()
    assert.equal(t.outputSchema?.type, 'object', `${t.name}: outputSchema`);
  }
});

await check('select_query has its schema: table required, limit an integer', async () => {
  const sq = tools.find((t) => t.name === 'select_query');
  assert.ok(sq.inputSchema.required.includes('table'));
  assert.equal(sq.inputSchema.properties.limit.type, 'integer');
  assert.equal(sq.annotations.readOnlyHint, true);
  assert.equal(sq.annotations.destructiveHint, false);
});

await check('select_query returns the rows in structuredContent', async () => {
  const r = await call('select_query', { table: 'mcp_items', columns: ['id', 'name'], order_by: 'id' });
  assert.notEqual(r.isError, true);
  assert.equal(r.structuredContent.success, true);
  assert.equal(r.structuredContent.rowCount, 3);
  assert.deepEqual(r.structuredContent.data, [
    { id: 1, name: 'apple' }, { id: 2, name: 'pear' }, { id: 3, name: 'plum' }]);
});

await check('the text content is the same envelope as JSON', async () => {
  const r = await call('select_query', { table: 'mcp_items', where: { id: 2 } });
  assert.equal(r.content.length, 1);
  assert.equal(r.content[0].type, 'text');
  assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent);
  assert.equal(r.structuredContent.data[0].name, 'pear');
});

await check('numerics pass through exactly (text content)', async () => {
  const r = await call('select_query', { table: 'mcp_items', columns: ['price'], where: { id: 3 } });
  assert.match(r.content[0].text, /123456789012345678901234567890\.123456789/);
});

await check('a misspelt table is an isError result with errorType invalid_table', async () => {
  const r = await call('select_query', { table: 'mcp_itemz' });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.success, false);
  assert.equal(r.structuredContent.errorType, 'invalid_table');
  assert.equal(r.structuredContent.error_type, 'resource_not_found');
  assert.match(r.structuredContent.suggestion, /mcp_items/);
  assert.match(r.content[0].text, /invalid_table/);
});

await check('bad arguments are an isError result with errorType invalid_parameters', async () => {
  const r = await call('select_query', { table: 'mcp_items', limt: 5 });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.errorType, 'invalid_parameters');
  assert.match(r.structuredContent.error + r.structuredContent.suggestion, /limit/);
});

await check('an unknown tool is an isError result with errorType unknown_tool', async () => {
  const r = await call('select_querry', { table: 'mcp_items' });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.errorType, 'unknown_tool');
});

await check('a write through insert_data, read back', async () => {
  const w = await call('insert_data', { table: 'mcp_items', rows: { id: 4, name: 'fig', price: 3 } });
  assert.notEqual(w.isError, true);
  assert.equal(w.structuredContent.affectedRows, 1);
  const r = await call('select_query', { table: 'mcp_items', where: { name: 'fig' } });
  assert.equal(r.structuredContent.data[0].id, 4);
});

await check('arguments that are not an object are a JSON-RPC error -32602', async () => {
  await assert.rejects(
    client.request({ method: 'tools/call', params: { name: 'select_query', arguments: [1] } },
      (await import('@modelcontextprotocol/sdk/types.js')).CallToolResultSchema),
    (err) => err.code === -32602,
  );
});

await check('the session closes cleanly and the program logged nothing alarming', async () => {
  await client.close();
  assert.doesNotMatch(stderr, /error:|warning:/, stderr);
});

clearTimeout(watchdog);
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);
