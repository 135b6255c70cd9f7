// The official MCP TypeScript SDK clients against neon-ai-tools-mcp --http
// (issue 16), run by test/t/016_mcp_http_sdk.pl with the server's URL:
//
//   node clients.mjs revisions URL   every tool under each revision: SDK
//                                    1.32.2 (2025-11-25, 2025-06-18,
//                                    2025-03-26) and @modelcontextprotocol/
//                                    client 2.4.0 pinned to 2026-07-28
//   node clients.mjs load URL        NAT_MCP_CLIENTS (16) concurrent SDK
//                                    clients calling for NAT_MCP_LOAD_SECONDS
//                                    (20) after NAT_MCP_WARM_SECONDS (3);
//                                    prints "# warm" between the two and
//                                    "# end" half a second before stopping
//   node clients.mjs text-block URL  the text block of a select_query and
//                                    of a misspelt column under 2025-11-25,
//                                    2026-07-28 and 2025-03-26, for a server
//                                    started with --text-block
//                                    NAT_MCP_TEXT_BLOCK (json, compact,
//                                    summary; 2025-03-26: always json)
//   node clients.mjs cancel-session URL   a pg_sleep(30) call aborted with
//                                    an AbortSignal (SDK 1.32.2: it POSTs
//                                    notifications/cancelled); prints
//                                    "# cancel_posted EPOCH_MS"
//   node clients.mjs cancel-modern URL    the same with the 2026-07-28
//                                    client (abort closes the request's
//                                    stream); prints "# abort_at EPOCH_MS"
//                                    (AbortController.abort() called) and
//                                    "# stream_aborted_at EPOCH_MS" (the
//                                    SDK aborted that request's fetch)
//
// Prints TAP; exits 1 when an assertion failed.  The database holds
// mcp_items (id int PRIMARY KEY, name text, price numeric) with ids 1, 2.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { ROWS, TYPO, checkStructured, checkText } from '../text_block.mjs';

const [mode, url] = process.argv.slice(2);
const TOOLS = ['delete_data', 'describe_table', 'execute_sql', 'explain_query',
  'insert_data', 'list_tables', 'select_query', 'update_data'];

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
const check = async (name, fn) => {
  try {
    await fn();
    report(true, name);
  } catch (err) {
    report(false, name, err);
  }
};
const done = () => {
  console.log(`1..${n}`);
  process.exit(failed ? 1 : 0);
};
const epochMs = () => performance.timeOrigin + performance.now();

// A fetch that rewrites initialize's protocolVersion (the SDK always asks
// for its newest, 2025-11-25; the server answers the revision asked for
// and the client adopts it) and notes when a notifications/cancelled
// leaves.
const makeFetch = (revision, seen) => async (input, init) => {
  if (init && typeof init.body === 'string') {
    if (revision && init.body.includes('"initialize"')) {
      const m = JSON.parse(init.body);
      m.params.protocolVersion = revision;
      init = { ...init, body: JSON.stringify(m) };
    }
    if (init.body.includes('"notifications/cancelled"')) seen.cancelPosted = epochMs();
  }
  return fetch(input, init);
};

const legacyClient = async (revision, seen = {}) => {
  const transport = new StreamableHTTPClientTransport(new URL(url),
    { fetch: makeFetch(revision, seen) });
  const client = new Client({ name: 'neon-ai-tools-http-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
};

// seen.streamAborted: when the fetch of a pg_sleep call was aborted (undici
// then closes that request's connection)
const modernClient = async (seen = {}) => {
  const client = new ModernClient({ name: 'neon-ai-tools-http-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const fetchNoting = (input, init) => {
    if (init?.signal && typeof init.body === 'string' && init.body.includes('pg_sleep')) {
      init.signal.addEventListener('abort', () => { seen.streamAborted = epochMs(); });
    }
    return fetch(input, init);
  };
  await client.connect(new ModernTransport(new URL(url), { fetch: fetchNoting }));
  return client;
};

// A valid call of every tool; id keeps the rows of each run apart.
const everyTool = (id) => [
  ['list_tables', {}],
  ['describe_table', { table: 'mcp_items' }],
  ['select_query', { table: 'mcp_items', where: { id: 1 } }],
  ['insert_data', { table: 'mcp_items', rows: { id, name: `n${id}`, price: 1 } }],
  ['update_data', { table: 'mcp_items', set: { price: 2 }, where: { id } }],
  ['execute_sql', { sql: `SELECT price FROM mcp_items WHERE id = ${id}` }],
  ['explain_query', { sql: 'SELECT * FROM mcp_items WHERE id = 1' }],
  ['delete_data', { table: 'mcp_items', where: { id } }],
];

const checkCall = (name, r, structured) => {
  assert.notEqual(r.isError, true, `${name}: ${JSON.stringify(r).slice(0, 400)}`);
  const envelope = JSON.parse(r.content[0].text);
  assert.equal(envelope.success, true, `${name}: success`);
  if (structured) {
    assert.deepEqual(r.structuredContent, envelope, `${name}: structuredContent is the envelope`);
  } else {
    assert.equal(r.structuredContent, undefined, `${name}: no structuredContent before 2025-06-18`);
  }
  if (name === 'execute_sql') assert.equal(Number(envelope.data[0].price), 2);
};

async function revisions() {
  const watchdog = setTimeout(() => { report(false, 'finished within 120 s', 'timeout'); done(); }, 120000);
  let id = 100;
  for (const revision of ['2025-11-25', '2025-06-18', '2025-03-26']) {
    let client;
    let transport;
    let tools = [];
    await check(`${revision}: the SDK 1.32.2 client initializes a session of ${revision}`, async () => {
      ({ client, transport } = await legacyClient(revision));
      assert.equal(transport.protocolVersion, revision);
      assert.match(transport.sessionId, /^[0-9a-f]{32}$/);
      assert.equal(client.getServerVersion().name, 'neon-ai-tools-mcp');
    });
    if (!client) continue;
    await check(`${revision}: tools/list lists the eight tools`, async () => {
      ({ tools } = await client.listTools());
      assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
      for (const t of tools) {
        if (revision >= '2025-06-18') assert.equal(t.outputSchema?.type, 'object', t.name);
        else assert.equal(t.outputSchema, undefined, `${t.name}: no outputSchema`);
      }
    });
    id += 10;
    for (const [name, args] of everyTool(id)) {
      await check(`${revision}: tools/call ${name}`, async () => {
        checkCall(name, await client.callTool({ name, arguments: args }), revision >= '2025-06-18');
      });
    }
    await check(`${revision}: the session ends (DELETE)`, async () => {
      await transport.terminateSession();
      await client.close();
    });
  }

  let modern;
  await check('2026-07-28: client 2.4.0 pinned to 2026-07-28 connects (server/discover)', async () => {
    modern = await modernClient();
    assert.equal(modern.getServerVersion()?.name, 'neon-ai-tools-mcp');
  });
  if (modern) {
    await check('2026-07-28: tools/list lists the eight tools, in the same order twice', async () => {
      const a = (await modern.listTools()).tools.map((t) => t.name);
      const b = (await modern.listTools()).tools.map((t) => t.name);
      assert.deepEqual([...a].sort(), TOOLS);
      assert.deepEqual(a, b);
    });
    id += 10;
    for (const [name, args] of everyTool(id)) {
      await check(`2026-07-28: tools/call ${name}`, async () => {
        checkCall(name, await modern.callTool({ name, arguments: args }), true);
      });
    }
    await modern.close();
  }
  clearTimeout(watchdog);
  done();
}

async function load() {
  const clients = Number(process.env.NAT_MCP_CLIENTS || 16);
  const warm = Number(process.env.NAT_MCP_WARM_SECONDS || 3) * 1000;
  const seconds = Number(process.env.NAT_MCP_LOAD_SECONDS || 20);
  const counts = Array(clients).fill(0);
  const failures = [];
  let measuring = false;
  let stop = false;
  const work = async (i) => {
    const { client, transport } = await legacyClient(null);
    for (let k = 0; !stop; k++) {
      const key = 1 + ((i + k) % 2);
      try {
        const r = await client.callTool({ name: 'select_query',
          arguments: { table: 'mcp_items', columns: ['id'], where: { id: key } } });
        if (r.isError || r.structuredContent?.data?.[0]?.id !== key) {
          failures.push(JSON.stringify(r).slice(0, 300));
        }
      } catch (err) {
        failures.push(String(err));
      }
      if (measuring) counts[i] += 1;
    }
    await transport.terminateSession();
    await client.close();
  };
  const runs = [];
  await check(`${clients} SDK clients connect`, async () => {
    for (let i = 0; i < clients; i++) runs.push(work(i));
  });
  await new Promise((r) => setTimeout(r, warm));
  measuring = true;
  console.log('# warm');
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  // the clients keep calling a little while the server's RSS is read
  console.log('# end');
  await new Promise((r) => setTimeout(r, 500));
  stop = true;
  const elapsed = (Date.now() - t0) / 1000;
  await Promise.all(runs);
  const total = counts.reduce((a, b) => a + b, 0);
  console.log(`# calls ${total} in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)}/s), `
    + `per client min ${Math.min(...counts)} max ${Math.max(...counts)}, failed ${failures.length}`);
  await check(`${clients} clients x ${seconds} s: no failed call`, async () => {
    assert.equal(failures.length, 0, failures.slice(0, 3).join('\n'));
  });
  await check(`${clients} clients x ${seconds} s: every client made calls`, async () => {
    assert.ok(Math.min(...counts) > 0, JSON.stringify(counts));
  });
  done();
}

async function textBlock() {
  const watchdog = setTimeout(() => { report(false, 'finished within 60 s', 'timeout'); done(); }, 60000);
  const mode = process.env.NAT_MCP_TEXT_BLOCK || 'json';
  for (const revision of ['2025-11-25', '2025-03-26']) {
    await check(`${revision}, server's text block ${mode}: select_query and a misspelt column`, async () => {
      const { client, transport } = await legacyClient(revision);
      const ok = await client.callTool({ name: 'select_query', arguments: ROWS });
      const err = await client.callTool({ name: 'select_query', arguments: TYPO });
      await transport.terminateSession();
      await client.close();
      if (revision === '2025-03-26') {
        assert.equal(ok.structuredContent, undefined);
        assert.equal(err.structuredContent, undefined);
        checkText('json', ok, false);
        checkText('json', err, true);
      } else {
        checkStructured(ok, false);
        checkStructured(err, true);
        checkText(mode, ok, false);
        checkText(mode, err, true);
      }
    });
  }
  await check(`2026-07-28, server's text block ${mode}: select_query and a misspelt column`, async () => {
    const modern = await modernClient();
    const ok = await modern.callTool({ name: 'select_query', arguments: ROWS });
    const err = await modern.callTool({ name: 'select_query', arguments: TYPO });
    await modern.close();
    checkStructured(ok, false);
    checkStructured(err, true);
    checkText(mode, ok, false);
    checkText(mode, err, true);
  });
  clearTimeout(watchdog);
  done();
}

const SLEEP = { name: 'execute_sql', arguments: { sql: 'SELECT pg_sleep(30)' } };
const ABORT_AFTER_MS = Number(process.env.NAT_MCP_ABORT_AFTER_MS || 1500);

async function cancelSession() {
  const seen = {};
  const { client, transport } = await legacyClient(null, seen);
  await client.callTool({ name: 'list_tables', arguments: {} });
  const ac = new AbortController();
  setTimeout(() => ac.abort('the test cancels'), ABORT_AFTER_MS);
  const t0 = Date.now();
  await check('2025-11-25: an aborted call rejects', async () => {
    await assert.rejects(client.callTool(SLEEP, undefined, { signal: ac.signal }));
  });
  console.log(`# cancel_posted ${seen.cancelPosted}`);
  await check('2025-11-25: the SDK POSTed notifications/cancelled', async () => {
    assert.ok(seen.cancelPosted, 'no cancel seen');
    assert.ok(Date.now() - t0 < 5000);
  });
  await check('2025-11-25: the next call in the session works', async () => {
    const r = await client.callTool({ name: 'select_query', arguments: { table: 'mcp_items', where: { id: 1 } } });
    assert.equal(r.structuredContent.success, true);
  });
  await transport.terminateSession();
  await client.close();
  done();
}

async function cancelModern() {
  const seen = {};
  const client = await modernClient(seen);
  await client.callTool({ name: 'list_tables', arguments: {} });
  const ac = new AbortController();
  let abortAt;
  setTimeout(() => { abortAt = epochMs(); ac.abort('the test cancels'); }, ABORT_AFTER_MS);
  await check('2026-07-28: an aborted call rejects', async () => {
    await assert.rejects(client.callTool(SLEEP, { signal: ac.signal }));
  });
  console.log(`# abort_at ${abortAt}`);
  console.log(`# stream_aborted_at ${seen.streamAborted}`);
  await check('2026-07-28: the aborted call\'s fetch was aborted', async () => {
    assert.ok(seen.streamAborted >= abortAt, `${seen.streamAborted} ${abortAt}`);
  });
  await check('2026-07-28: the next call works', async () => {
    const r = await client.callTool({ name: 'select_query', arguments: { table: 'mcp_items', where: { id: 1 } } });
    assert.equal(r.structuredContent.success, true);
  });
  await client.close();
  done();
}

const modes = {
  revisions, load, 'text-block': textBlock, 'cancel-session': cancelSession, 'cancel-modern': cancelModern,
};
if (!modes[mode] || !url) {
  console.log('1..0 # SKIP usage: node clients.mjs revisions|load|text-block|cancel-session|cancel-modern URL');
  process.exit(0);
}
await modes[mode]();
