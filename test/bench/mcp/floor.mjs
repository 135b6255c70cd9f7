// The floor of a tools/call round trip over stdio, per server: the same SDK
// client and transport talking to a stand-in server (a few lines of node)
// that answers every tools/call at once with the answer the real server
// gave for the point query.  What is left above it is the server's own
// work and its database round trip.  Blocks of calls alternate between the
// two stand-ins; medians and 99th percentiles in ms.
//
// Usage: node floor.mjs <neon-ai-tools-mcp path> <host> <port> <db> <user> [calls]
import { performance } from "node:perf_hooks";
import { connect, connectBoth, pct } from "./servers.mjs";

const [program, host, port, db, user, callsArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 2000);
const block = 50;

// each real server's answer to the point query
const { ours, reference } = await connectBoth(program, host, port, db, user);
const answers = {
  "neon-ai-tools-mcp's answer": await ours.callTool({
    name: "select_query", arguments: { table: "bench", where: { id: 5 } } }),
  "reference server's answer": await reference.callTool({
    name: "query", arguments: { sql: "SELECT * FROM bench WHERE id = 5" } }),
};
await ours.close();
await reference.close();

// a stand-in: answers initialize, ping and tools/call (with the canned answer)
const standIn = `
const answer = JSON.parse(process.argv[1]);
let buf = "";
process.stdin.on("data", (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf("\\n")) >= 0) {
    const m = JSON.parse(buf.slice(0, i)); buf = buf.slice(i + 1);
    if (m.id === undefined) continue;
    const result = m.method === "initialize"
      ? { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "stand-in", version: "1" } }
      : m.method === "tools/call" ? answer : {};
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n");
  }
});`;
const sides = {};
for (const [name, answer] of Object.entries(answers))
  sides[name] = await connect(process.execPath, ["-e", standIn, JSON.stringify(answer)]);

const times = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
for (const client of Object.values(sides))
  for (let i = 1; i <= 100; i++) await client.callTool({ name: "select_query", arguments: { id: i } });
for (let done = 0; done < calls; done += block) {
  const order = (done / block) % 2 ? Object.keys(sides).reverse() : Object.keys(sides);
  for (const side of order)
    for (let i = 0; i < block; i++) {
      const t0 = performance.now();
      await sides[side].callTool({ name: "select_query", arguments: { id: i } });
      times[side].push(performance.now() - t0);
    }
}
for (const [side, xs] of Object.entries(times))
  console.log(`stand-in with ${side.padEnd(28)} median ${pct(xs, 0.5).toFixed(3)} ms   p99 ${pct(xs, 0.99).toFixed(3)} ms   (${JSON.stringify(answers[side]).length} bytes)`);
for (const client of Object.values(sides)) await client.close();
