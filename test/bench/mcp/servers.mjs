// What latency.mjs and floor.mjs share: the SDK client over stdio, the two
// real servers started on the same database, and percentiles.
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const require = createRequire(import.meta.url);
const referenceMain = require.resolve("@modelcontextprotocol/server-postgres/dist/index.js");

// an SDK client on a server started as command args, its stderr ignored
export async function connect(command, args) {
  const client = new Client({ name: "mcp-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
  return client;
}

// neon-ai-tools-mcp (program) and the reference server on one database
export async function connectBoth(program, host, port, db, user) {
  const ours = await connect(program, [`host=${host} port=${port} dbname=${db} user=${user}`]);
  const reference = await connect(process.execPath,
    [referenceMain, `postgresql://${user}@${host}:${port}/${db}`]);
  return { ours, reference };
}

// the p-th percentile (0..1) of xs
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
