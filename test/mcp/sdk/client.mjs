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
import { spawnSync } from 'node:child_process';
import { ROWS, TYPO, checkStructured, checkText, report as reportSizes } from '../text_block.mjs';

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
  report(false, 'the session finished within 90 s', 'timed out');
  console.log(`1..${n}`);
  process.exit(1);
}, 90000);

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

// --- the text block: --text-block json|compact|summary (issue 32) ---------------
//
// Another program per case: the option, the environment variable, the
// option over the variable, and a client that asks for 2025-03-26 (no
// structuredContent: the text stays the whole envelope whatever is asked).
const ENV = 'NEON_AI_TOOLS_MCP_TEXT_BLOCK';
const spawnClient = async ({ args = [], env = {}, revision } = {}) => {
  const t = new StdioClientTransport({
    command: program,
    args: [...args, conninfo],
    env: { PATH: process.env.PATH || '/usr/bin:/bin', LANG: 'C.UTF-8', ...env },
    stderr: 'pipe',
  });
  if (revision) {
    const send = t.send.bind(t);
    t.send = (m, o) => send(m.method === 'initialize'
      ? { ...m, params: { ...m.params, protocolVersion: revision } } : m, o);
  }
  const c = new Client({ name: 'neon-ai-tools-text-block-test', version: '1.0.0' });
  await c.connect(t);
  return c;
};
const twoCalls = async (how) => {
  const c = await spawnClient(how);
  try {
    return {
      ok: await c.callTool({ name: 'select_query', arguments: ROWS }),
      err: await c.callTool({ name: 'select_query', arguments: TYPO }),
      price: await c.callTool({ name: 'select_query', arguments: { table: 'mcp_items', columns: ['price'], where: { id: 3 } } }),
    };
  } finally {
    await c.close();
  }
};
const byMode = {};
for (const [mode, label, how] of [
  ['json', '--text-block=json over the environment\'s summary',
    { args: ['--text-block=json'], env: { [ENV]: 'summary' } }],
  ['compact', '--text-block=compact', { args: ['--text-block=compact'] }],
  ['summary', `${ENV}=summary`, { env: { [ENV]: 'summary' } }],
]) {
  await check(`${label}: the text block is ${mode}, structuredContent the whole envelope`, async () => {
    const rs = await twoCalls(how);
    byMode[mode] = rs;
    checkStructured(rs.ok, false);
    checkStructured(rs.err, true);
    checkText(mode, rs.ok, false);
    checkText(mode, rs.err, true);
  });
}

await check('--text-block=compact keeps numerics digit for digit', async () => {
  assert.match(byMode.compact.price.content[0].text,
    /^\{"success":true,.*"data":\[\[123456789012345678901234567890\.123456789\]\]\}$/);
});

await check('2025-03-26 with --text-block=summary: the text is the whole envelope, no structuredContent', async () => {
  const rs = await twoCalls({ args: ['--text-block=summary'], revision: '2025-03-26' });
  for (const [r, error] of [[rs.ok, false], [rs.err, true]]) {
    assert.equal(r.structuredContent, undefined);
    checkText('json', r, error);
  }
});

await check('an unknown --text-block or environment value is a usage error (exit code 1)', async () => {
  const a = spawnSync(program, ['--text-block=tiny', conninfo], { encoding: 'utf8', input: '' });
  assert.equal(a.status, 1);
  assert.match(a.stderr, /invalid value "tiny" for --text-block: json, compact or summary is required/);
  const b = spawnSync(program, [conninfo], { encoding: 'utf8', input: '', env: { ...process.env, [ENV]: 'full' } });
  assert.equal(b.status, 1);
  assert.match(b.stderr, new RegExp(`invalid value "full" for ${ENV}`));
});

if (byMode.json && byMode.compact && byMode.summary) reportSizes(console.log, byMode);

clearTimeout(watchdog);
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);
