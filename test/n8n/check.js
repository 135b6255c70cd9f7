// check.js: prints what n8n got from each node and checks it, TAP style.
// Reads out-ID.json (n8n execute --rawOutput: log lines, then JSON),
// mcp.log (the MCP server's stderr) and llm.jsonl (the scripted model's
// requests), all in the current directory.
'use strict';
const fs = require('fs');

let n = 0;
let failed = 0;
function ok(cond, what, extra) {
  n++;
  if (!cond) failed++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${what}${extra ? '  # ' + extra : ''}`);
}

function execution(id) {
  const file = `out-${id}.json`;
  if (!fs.existsSync(file)) return null;
  const text = fs.readFileSync(file, 'utf8');
  const start = text.search(/^\{/m);
  if (start < 0) {
    console.log(`# ${file} has no execution JSON; its last lines:`);
    text.trim().split('\n').slice(-15).forEach((l) => console.log('#   ' + l));
    return null;
  }
  const data = JSON.parse(text.slice(start));
  console.log(`# workflow ${id}: status=${data.status}`);
  for (const [node, runs] of Object.entries(data.data.resultData.runData))
    for (const run of runs) {
      console.log(`#   ${node}: ${run.executionStatus}${run.error ? ' (' + run.error.message + ')' : ''}`);
      for (const [type, outs] of Object.entries(run.data || {}))
        for (const items of outs || [])
          for (const item of items || [])
            console.log(`#     [${type}] ` + JSON.stringify(item.json).slice(0, 600));
    }
  return data;
}

// the first output item of a node's last run
function output(data, node, type = 'main') {
  const runs = data?.data.resultData.runData[node];
  return runs?.[runs.length - 1]?.data?.[type]?.[0]?.[0]?.json;
}
const ids = (rows) => (rows || []).map((r) => r.id).join(',');

// 1. the standalone MCP Client node, one tool call per node
const a = execution('natMcpClient01');
ok(a?.status === 'success', 'MCP Client workflow ran');
const tables = output(a, 'list_tables (east)')?.structuredContent;
ok(tables?.data?.some((t) => t.name === 'orders'), 'list_tables as agent_east lists orders');
const east = output(a, 'select_query (east)')?.structuredContent;
ok(ids(east?.data) === '1,3,5', 'select_query as agent_east: the east rows only', 'ids ' + ids(east?.data));
const west = output(a, 'select_query (west)')?.structuredContent;
ok(ids(west?.data) === '2,4', 'select_query as agent_west: the west rows only', 'ids ' + ids(west?.data));
const ins = output(a, 'insert_data (west, read-only)');
const insResult = ins?.structuredContent ?? (ins?.error ? JSON.parse(ins.error.message) : null);
ok(insResult?.success === false, "insert_data as agent_west is refused (its role's read_only policy)",
  insResult?.success ? 'inserted: ' + ids(insResult.data) : insResult?.errorType);
const bad = output(a, 'select_query bad column (east)');
ok(/invalid_column/.test(bad?.error?.message || '') && /customer/.test(bad?.error?.message || ''),
  'a misspelt column is a tool error (isError) naming invalid_column and suggesting "customer"');

// 2. the MCP Client Tool node, run by n8n's Tool Executor (no agent)
const b = execution('natMcpClientTool1');
ok(b?.status === 'success', 'MCP Client Tool workflow (Tool Executor) ran');
let got = output(b, 'Run select_query');
got = typeof got === 'string' ? JSON.parse(got) : got;
ok(ids(got?.data) === '3,1', 'neon_select_query with where/order_by as agent_east', 'ids ' + ids(got?.data));

// 3. the MCP Client Tool under an AI Agent, the model scripted
const c = execution('natMcpAgent00001');
ok(c?.status === 'success', 'AI Agent workflow ran');
const llm = fs.existsSync('llm.jsonl')
  ? fs.readFileSync('llm.jsonl', 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
// agent_west is read-only: tools/list leaves the writing tools out for it
const tools = (llm[0]?.tools || []).map((t) => t.function.name).sort();
ok(['neon_describe_table', 'neon_explain_query', 'neon_list_tables', 'neon_select_query']
  .every((t) => tools.includes(t)) &&
  !tools.some((t) => /neon_(insert|update|delete)_data/.test(t)),
  "the model was offered agent_west's tools (n8n-prefixed), the writing ones left out", tools.join(' '));
const schema = llm[0]?.tools?.find((t) => t.function.name === 'neon_select_query')?.function.parameters;
ok(schema?.properties?.table && schema?.required?.includes('table'), "neon_select_query's schema kept table (required)");
const answer = output(c, 'AI Agent')?.output || '';
ok(/Globex/.test(answer) && /Umbrella/.test(answer) && !/Acme/.test(answer),
  "the agent's answer holds agent_west's rows only");

// 4. the server's request log
const log = fs.readFileSync('mcp.log', 'utf8').split('\n').filter((l) => l.includes(' request method='));
const calls = log.filter((l) => l.includes('method=tools/call'));
console.log('# server log, tools/call lines:');
calls.forEach((l) => console.log('#   ' + l));
ok(calls.length === 7, '7 tools/call requests reached the server', `${calls.length}`);
ok(calls.every((l) => / status=200 /.test(l)), 'each answered 200');
ok(fs.readFileSync('mcp.log', 'utf8').split('\n').every((l) => !/warning|error:/.test(l)),
  'no warning or error in the server log');

console.log(`1..${n}`);
console.log(failed ? `# ${failed} of ${n} failed` : `# all ${n} passed`);
process.exit(failed ? 1 : 0);
