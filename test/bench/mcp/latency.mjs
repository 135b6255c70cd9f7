// tools/call round trips through neon-ai-tools-mcp and through the
// reference MCP Postgres server (@modelcontextprotocol/server-postgres,
// its "query" tool), for the same point query, with the same SDK client.
// Blocks of calls alternate between the two servers; the figures are the
// median, 95th and 99th percentile of each call's round trip, and the
// ratios of the medians and of the 99th percentiles.
//
// Usage: node latency.mjs <neon-ai-tools-mcp path> <host> <port> <db> <user> [calls]
import { performance } from "node:perf_hooks";
import { connectBoth, pct } from "./servers.mjs";

const [program, host, port, db, user, callsArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 1000);
const block = 50;

const { ours, reference } = await connectBoth(program, host, port, db, user);
const sides = {
  "neon-ai-tools-mcp select_query": (id) => ours.callTool({
    name: "select_query", arguments: { table: "bench", where: { id } } }),
  "reference server query": (id) => reference.callTool({
    name: "query", arguments: { sql: `SELECT * FROM bench WHERE id = ${id}` } }),
};
const times = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));

// warm up both (connections, plans), then alternate blocks
for (const call of Object.values(sides))
  for (let i = 1; i <= 100; i++) await call(i);
let id = 1;
for (let done = 0; done < calls; done += block) {
  const order = (done / block) % 2 ? Object.keys(sides).reverse() : Object.keys(sides);
  for (const side of order) {
    for (let i = 0; i < block; i++) {
      const t0 = performance.now();
      const result = await sides[side]((id++ % 100000) + 1);
      times[side].push(performance.now() - t0);
      if (result.isError) throw new Error(`${side}: ${JSON.stringify(result)}`);
    }
  }
}

// the floor both share: a bare ping through the same client and transport
const pings = {};
for (const [name, client] of [["neon-ai-tools-mcp", ours], ["reference server", reference]]) {
  const xs = [];
  for (let i = 0; i < 500; i++) {
    const t0 = performance.now();
    await client.ping();
    xs.push(performance.now() - t0);
  }
  pings[name] = xs;
}

const rows = Object.entries(times).map(([side, xs]) => ({ side, median: pct(xs, 0.5), p95: pct(xs, 0.95), p99: pct(xs, 0.99), n: xs.length }));
for (const r of rows)
  console.log(`${r.side.padEnd(34)} median ${r.median.toFixed(3)} ms   p95 ${r.p95.toFixed(3)} ms   p99 ${r.p99.toFixed(3)} ms   (${r.n} calls)`);
console.log(`ratio of medians (neon-ai-tools-mcp / reference): ${(rows[0].median / rows[1].median).toFixed(2)}`);
console.log(`ratio of 99th percentiles (neon-ai-tools-mcp / reference): ${(rows[0].p99 / rows[1].p99).toFixed(2)}`);
for (const [name, xs] of Object.entries(pings))
  console.log(`ping (client + stdio floor), ${name.padEnd(18)} median ${pct(xs, 0.5).toFixed(3)} ms`);
await ours.close();
await reference.close();
