// A known mixed workload against neon-ai-tools-mcp --http, then its
// GET /metrics parsed with a Prometheus text-format parser (issue 34).
//
// Usage: node workload.mjs CONFIG_JSON
//   {"url": "http://127.0.0.1:P/mcp", "admin": "http://127.0.0.1:Q",
//    "tokens": {"agent_a": ..., "agent_b": ..., "agent_ro": ...},
//    "clients": 4, "rounds": 15, "max_body": 4096}
//
// Each client makes 250 HTTP requests (with rounds 15): a session
// (initialize, notifications/initialized, a batch of three pings against
// --max-batch-members 2), 16 kinds of request 15 times each (successes,
// each error category a tool answers, authentication failures, a body over
// --max-body), two calls cancelled by closing the connection, two cancelled
// by notifications/cancelled, and DELETE of its session.  Every request
// declares what it must add to the metrics; the answers are checked against
// that as they come.  Prints one JSON object: {requests, mismatches,
// expected, metrics, format_errors}, series keyed as name{labels sorted}.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

const cfg = JSON.parse(process.argv[2]);
const OLD = '2025-03-26';
const NEW = '2026-07-28';
const expected = new Map();
const mismatches = [];
let requests = 0;

function key(name, labels = {}) {
  const l = Object.keys(labels).sort().map((k) => `${k}="${labels[k]}"`).join(',');
  return `${name}{${l}}`;
}
function add(name, labels, n = 1) {
  const k = key(`neon_ai_tools_mcp_${name}`, labels);
  expected.set(k, (expected.get(k) || 0) + n);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function statelessCall(id, name, args) {
  return {
    body: {
      jsonrpc: '2.0', id, method: 'tools/call',
      params: {
        name, arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': NEW,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
    headers: { 'MCP-Protocol-Version': NEW, 'Mcp-Method': 'tools/call', 'Mcp-Name': name },
  };
}

async function post(body, headers, signal) {
  requests++;
  const res = await fetch(cfg.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, json, headers: res.headers };
}

function check(what, got, want) {
  if (got !== want) mismatches.push(`${what}: got ${got}, want ${want}`);
}

// the tool calls: [kind, tool, arguments, outcome]
const toolKinds = [
  ['ok', 'select_query', { table: 'items', order_by: 'id' }, 'ok'],
  ['invalid_parameters', 'select_query', { table: 'items', limit: 'x' }, 'invalid_parameters'],
  ['unknown_tool', 'no_such_tool', {}, 'unknown_tool'],
  ['invalid_table', 'select_query', { table: 'no_such_table' }, 'invalid_table'],
  ['invalid_column', 'select_query', { table: 'items', columns: ['no_such_column'] }, 'invalid_column'],
  ['syntax_error', 'execute_sql', { sql: 'SELEC 1' }, 'syntax_error'],
  ['invalid_input', 'insert_data', { table: 'items', rows: [{ id: 'abc' }] }, 'invalid_input'],
  ['constraint_violation', 'insert_data', { table: 'items', rows: [{ id: 1 }] }, 'constraint_violation'],
  ['permission_denied', 'select_query', { table: 'secret' }, 'permission_denied'],
  ['confirmation_required', 'delete_data', { table: 'items' }, 'confirmation_required'],
  ['read_only_violation', 'execute_sql', { sql: 'INSERT INTO items VALUES (-1)' }, 'read_only_violation'],
  ['timeout', 'execute_sql', { sql: 'SELECT pg_sleep(0.5)', timeout_ms: 20 }, 'timeout'],
];

async function toolCall(c, j, kind) {
  const [name, tool, args, outcome] = kind;
  const role = name === 'read_only_violation' ? 'agent_ro' : (c + j) % 2 ? 'agent_b' : 'agent_a';
  const m = statelessCall(`${c}-${j}-${name}`, tool, args);
  const r = await post(m.body, { ...m.headers, Authorization: `Bearer ${cfg.tokens[role]}` });
  check(`${name} status`, r.status, 200);
  const sc = r.json?.result?.structuredContent;
  check(`${name} outcome`, sc?.success ? 'ok' : sc?.errorType, outcome);
  add('http_responses_total', { code: '200' });
  add('jsonrpc_messages_total', { method: 'tools/call' });
  add('tool_calls_total', { tool: outcome === 'unknown_tool' ? 'other' : tool, role, outcome });
}

async function refused(c, j, kind) {
  const m = statelessCall(`${c}-${j}-${kind}`, 'select_query', { table: 'items' });
  const auth = { Authorization: `Bearer ${cfg.tokens.agent_a}` };
  let r;
  if (kind === 'auth_missing') {
    r = await post(m.body, m.headers);
    check(kind, r.status, 401);
    add('http_responses_total', { code: '401' });
    add('auth_failures_total', { reason: 'missing' });
  } else if (kind === 'auth_invalid') {
    r = await post(m.body, { ...m.headers, Authorization: 'Bearer not-a-known-token' });
    check(kind, r.status, 401);
    add('http_responses_total', { code: '401' });
    add('auth_failures_total', { reason: 'invalid' });
  } else if (kind === 'auth_malformed') {
    r = await post(m.body, { ...m.headers, Authorization: 'Bearer two words' });
    check(kind, r.status, 400);
    add('http_responses_total', { code: '400' });
    add('auth_failures_total', { reason: 'malformed' });
  } else if (kind === 'body_size') {
    m.body.params.arguments.pad = 'x'.repeat(cfg.max_body);
    r = await post(m.body, { ...m.headers, ...auth });
    check(kind, r.status, 413);
    add('http_responses_total', { code: '413' });
    add('refusals_total', { reason: 'body_size' });
  }
}

// a session of the revisions before 2025-06-18, where batches exist
async function openSession(c) {
  const auth = { Authorization: `Bearer ${cfg.tokens.agent_a}` };
  let r = await post({
    jsonrpc: '2.0', id: 'init', method: 'initialize',
    params: { protocolVersion: OLD, capabilities: {}, clientInfo: { name: 'metrics', version: '1' } },
  }, auth);
  check('initialize', r.status, 200);
  const session = { ...auth, 'Mcp-Session-Id': r.headers.get('mcp-session-id'), 'MCP-Protocol-Version': OLD };
  add('http_responses_total', { code: '200' });
  add('jsonrpc_messages_total', { method: 'initialize' });
  add('sessions_total', { event: 'created' });
  r = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  check('initialized', r.status, 202);
  add('http_responses_total', { code: '202' });
  add('jsonrpc_messages_total', { method: 'notifications/initialized' });
  r = await post([1, 2, 3].map((i) => ({ jsonrpc: '2.0', id: `b${c}-${i}`, method: 'ping' })), session);
  check('batch', r.status, 200);
  check('batch answers', Array.isArray(r.json) && r.json.filter((a) => a.error?.code === -32600).length, 1);
  add('http_responses_total', { code: '200' });
  add('jsonrpc_messages_total', { method: 'ping' }, 2);
  add('refusals_total', { reason: 'batch_members' });
  return session;
}

const SLOW = { sql: 'SELECT pg_sleep(5)' };

// a call whose client closes the connection once it runs
async function cancelByDisconnect(c, i) {
  const m = statelessCall(`${c}-drop-${i}`, 'execute_sql', SLOW);
  const ac = new AbortController();
  const p = post(m.body, { ...m.headers, Authorization: `Bearer ${cfg.tokens.agent_a}` }, ac.signal)
    .then(() => 'answered', () => 'aborted');
  await sleep(300);
  ac.abort();
  check('disconnect', await p, 'aborted');
  add('http_responses_total', { code: '200' });	// queued to a closed connection
  add('jsonrpc_messages_total', { method: 'tools/call' });
  add('tool_calls_total', { tool: 'execute_sql', role: 'agent_a', outcome: 'cancelled' });
  add('cancels_total', { via: 'disconnect' });
}

// a session's call stopped by notifications/cancelled
async function cancelByNotification(c, i, session) {
  const id = `${c}-cancel-${i}`;
  const p = post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'execute_sql', arguments: SLOW } }, session);
  await sleep(300);
  const n = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }, session);
  check('cancel notification', n.status, 202);
  const r = await p;
  // 2025-03-26 has no structuredContent: the text block is the envelope
  const text = r.json?.result?.content?.[0]?.text;
  check('cancelled call', text && JSON.parse(text).errorType, 'cancelled');
  add('http_responses_total', { code: '202' });
  add('http_responses_total', { code: '200' });
  add('jsonrpc_messages_total', { method: 'notifications/cancelled' });
  add('jsonrpc_messages_total', { method: 'tools/call' });
  add('tool_calls_total', { tool: 'execute_sql', role: 'agent_a', outcome: 'cancelled' });
  add('cancels_total', { via: 'notification' });
}

async function client(c) {
  const kinds = [...toolKinds, 'auth_missing', 'auth_invalid', 'auth_malformed', 'body_size'];
  const session = await openSession(c);
  for (let j = 0; j < cfg.rounds * kinds.length; j++) {
    const kind = kinds[(j + c) % kinds.length];
    if (Array.isArray(kind)) await toolCall(c, j, kind);
    else await refused(c, j, kind);
  }
  for (let i = 0; i < 2; i++) await cancelByDisconnect(c, i);
  for (let i = 0; i < 2; i++) await cancelByNotification(c, i, session);
  requests++;
  const r = await fetch(cfg.url, { method: 'DELETE', headers: session });
  check('DELETE', r.status, 204);
  add('http_responses_total', { code: '204' });
  add('sessions_total', { event: 'deleted' });
}

// The exposition's own rules, beside the parser: HELP and TYPE first, one
// family's samples together, no series twice, cumulative buckets.
function formatErrors(text) {
  const errors = [];
  const seen = new Set();
  const families = new Set();
  let family = null;
  const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\[\\"n]|[^\\"\n])*"(,[a-zA-Z_][a-zA-Z0-9_]*="(\\[\\"n]|[^\\"\n])*")*)?\})? (-?[0-9.e+-]+|\+Inf|NaN)$/;
  if (!text.endsWith('\n')) errors.push('no final newline');
  for (const line of text.split('\n').slice(0, -1)) {
    let m;
    if ((m = line.match(/^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .+$/))) {
      if (families.has(m[1])) errors.push(`family ${m[1]} twice`);
      families.add(m[1]);
      family = m[1];
    } else if ((m = line.match(/^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram)$/))) {
      if (m[1] !== family) errors.push(`TYPE without HELP: ${line}`);
    } else if ((m = line.match(sample))) {
      const base = m[1].replace(/_(bucket|sum|count)$/, '');
      if (m[1] !== family && base !== family) errors.push(`sample outside its family: ${line}`);
      if (m[1].endsWith('_total') && Number(m[8]) < 0) errors.push(`negative counter: ${line}`);
      const id = `${m[1]}{${m[3] || ''}}`;
      if (seen.has(id)) errors.push(`series twice: ${id}`);
      seen.add(id);
    } else errors.push(`not a line of the format: ${line}`);
  }
  return errors;
}

// The parser merges a histogram's labelled series into one (it keys
// buckets by le alone): each tool's series go to it on their own.
function flatten(text) {
  const out = {};
  const histogram = 'neon_ai_tools_mcp_tool_call_duration_seconds';
  const perTool = new Map();
  const rest = [];
  for (const line of text.split('\n')) {
    const m = line.match(/^neon_ai_tools_mcp_tool_call_duration_seconds_(?:bucket|sum|count)\{tool="((?:\\.|[^"\\])*)"/);
    if (m) {
      if (!perTool.has(m[1])) perTool.set(m[1], []);
      perTool.get(m[1]).push(line.replace(/tool="(?:\\.|[^"\\])*",?/, ''));
    } else rest.push(line);
  }
  for (const f of parsePrometheusTextFormat(rest.join('\n'))) {
    for (const m of f.metrics) out[key(f.name, m.labels)] = Number(m.value);
  }
  for (const [tool, lines] of perTool) {
    const [f] = parsePrometheusTextFormat(`# HELP ${histogram} h\n# TYPE ${histogram} histogram\n${lines.join('\n')}\n`);
    const [m] = f.metrics;
    let prev = -1;
    for (const le of Object.keys(m.buckets).sort((a, b) => Number(a) - Number(b))) {
      if (Number(m.buckets[le]) < prev) out[`${histogram}:not_cumulative{tool="${tool}"}`] = le;
      prev = Number(m.buckets[le]);
    }
    out[key(`${histogram}_count`, { tool })] = Number(m.count);
    if (Number(m.buckets['+Inf']) !== Number(m.count) || !(Number(m.sum) > 0)) {
      out[`${histogram}:inconsistent{tool="${tool}"}`] = 1;
    }
  }
  return out;
}

await Promise.all([...Array(cfg.clients).keys()].map((c) => client(c)));
const res = await fetch(`${cfg.admin}/metrics`);
const text = await res.text();
const metrics = flatten(text);
// the histogram counts per tool follow from the calls
for (const [k, n] of [...expected]) {
  const m = k.match(/^neon_ai_tools_mcp_tool_calls_total\{outcome="[^"]*",role="[^"]*",tool="([^"]*)"\}$/);
  if (m) add('tool_call_duration_seconds_count', { tool: m[1] }, n);
}
console.log(JSON.stringify({
  requests,
  mismatches,
  content_type: res.headers.get('content-type'),
  format_errors: formatErrors(text),
  expected: Object.fromEntries([...expected].sort()),
  metrics,
}));
