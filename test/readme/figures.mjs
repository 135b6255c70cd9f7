// The README's figures tables (issue 33, item 5), computed from a fresh
// measurement and compared with the README, or written into it.
//
// Each table sits between two marker lines in README.md:
//
//   <!-- figures NAME: made by scripts/readme-figures.sh, do not edit -->
//   ...table...
//   <!-- /figures -->
//
// NAME is "catalog" (ai_tool_list() in every format, full and compact:
// bytes and o200k tokens of the JSON as sent) or "answers" (the same 100
// demo rows in each answer format: bytes and o200k tokens of the answer's
// jsonb text).  Tokens are counted by gpt-tokenizer's o200k_base, the
// package test/catalog pins (its node_modules).
//
// Usage: node figures.mjs DUMP README.md           prints TAP, one test a table
//        node figures.mjs --write DUMP README.md   rewrites the tables
// DUMP: psql -At -F '\t' lines (test/readme/figures.sql):
//   catalog FORMAT COMPACT(t|f) JSON   and   answer FORMAT JSON
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const catalogRequire = createRequire(join(here, "../catalog/package.json"));
const { encode } = await import(
  pathToFileURL(catalogRequire.resolve("gpt-tokenizer/encoding/o200k_base")).href);

const args = process.argv.slice(2);
const write = args[0] === "--write";
if (write) args.shift();
if (args.length !== 2) {
  console.error("usage: node figures.mjs [--write] DUMP README.md");
  process.exit(2);
}
const [dumpFile, readmeFile] = args;

// --- the measurement ------------------------------------------------------------
const catalogs = {}; // format -> {full, compact} (parsed)
const answers = {}; // format -> jsonb text
const formatOrder = { catalog: [], answer: [] };
for (const line of readFileSync(dumpFile, "utf8").split("\n")) {
  if (line === "") continue;
  const cols = line.split("\t");
  if (cols[0] === "catalog") {
    const [, format, compact, json] = cols;
    if (!catalogs[format]) formatOrder.catalog.push(format);
    (catalogs[format] ??= {})[compact === "t" ? "compact" : "full"] = JSON.parse(json);
  } else if (cols[0] === "answer") {
    formatOrder.answer.push(cols[1]);
    answers[cols[1]] = cols[2];
  } else {
    throw new Error(`${dumpFile}: unexpected line ${line.slice(0, 80)}`);
  }
}

const num = (n) => n.toLocaleString("en-US");
const pct = (a, b) => `${Math.round((100 * a) / b)}%`;
const size = (text) => ({ bytes: Buffer.byteLength(text), tokens: encode(text).length });

function catalogTable() {
  const rows = ["| format | tools | bytes | tokens | compact: bytes | tokens | compact / full (tokens) |",
    "|---|---|---|---|---|---|---|"];
  const row = (label, tools, full, compact) => rows.push(
    `| ${label} | ${tools} | ${num(full.bytes)} | ${num(full.tokens)} | ${num(compact.bytes)} | ` +
    `${num(compact.tokens)} | ${pct(compact.tokens, full.tokens)} |`);
  for (const f of formatOrder.catalog) {
    const c = catalogs[f];
    if (!c.full || !c.compact) throw new Error(`${dumpFile}: format ${f} needs a full and a compact catalog`);
    row(`\`${f}\``, c.full.length, size(JSON.stringify(c.full)), size(JSON.stringify(c.compact)));
    if (f === "mcp") {
      const strip = (list) => JSON.stringify(list.map(({ outputSchema, ...rest }) => rest));
      row("`mcp` without `outputSchema`", c.full.length, size(strip(c.full)), size(strip(c.compact)));
    }
  }
  return rows;
}

function answerTable() {
  const rows = ["| format | bytes | tokens | of `json` (tokens) |", "|---|---|---|---|"];
  const json = size(answers.json ?? "");
  for (const f of formatOrder.answer) {
    const s = size(answers[f]);
    rows.push(`| \`${f}\` | ${num(s.bytes)} | ${num(s.tokens)} | ${pct(s.tokens, json.tokens)} |`);
  }
  return rows;
}

const tables = { catalog: catalogTable(), answers: answerTable() };

// --- the README -----------------------------------------------------------------
const lines = readFileSync(readmeFile, "utf8").split("\n");
const open = /^<!-- figures (\w+): .*-->$/;
const regions = []; // {name, start, end}: lines strictly between the markers
for (let i = 0; i < lines.length; i++) {
  const m = open.exec(lines[i]);
  if (!m) continue;
  let j = i + 1;
  while (j < lines.length && lines[j] !== "<!-- /figures -->") j++;
  if (j === lines.length) throw new Error(`${readmeFile}:${i + 1}: no <!-- /figures --> after it`);
  regions.push({ name: m[1], start: i + 1, end: j });
  i = j;
}
// what stands between the markers: the table, a blank line either side
const body = (name) => ["", ...tables[name], ""];

let n = 0;
let failed = 0;
function ok(pass, name, detail = []) {
  n++;
  console.log(`${pass ? "ok" : "not ok"} ${n} - ${name}`);
  if (!pass) {
    failed++;
    for (const l of detail) console.log(`#   ${l}`);
  }
}

if (write) {
  for (const r of [...regions].reverse()) {
    if (!tables[r.name]) throw new Error(`${readmeFile}: unknown figures table "${r.name}"`);
    lines.splice(r.start, r.end - r.start, ...body(r.name));
  }
  writeFileSync(readmeFile, lines.join("\n"));
  console.log(`wrote ${regions.map((r) => r.name).join(", ")} in ${readmeFile}`);
} else {
  for (const name of Object.keys(tables)) {
    const found = regions.filter((r) => r.name === name);
    if (found.length !== 1) {
      ok(false, `README figures table "${name}"`, [`${found.length} tables marked "${name}" in ${readmeFile}, not one`]);
      continue;
    }
    const shown = lines.slice(found[0].start, found[0].end);
    const fresh = body(name);
    const same = shown.length === fresh.length && shown.every((l, i) => l === fresh[i]);
    ok(same, `README figures table "${name}" (${readmeFile}:${found[0].start}) equals a fresh run`, same ? [] :
      ["README:", ...shown.filter((l) => l), "fresh run:", ...fresh.filter((l) => l),
        "regenerate: scripts/readme-figures.sh --write"]);
  }
  for (const r of regions.filter((r) => !tables[r.name]))
    ok(false, `README figures table "${r.name}"`, [`${readmeFile}:${r.start}: no such table`]);
  console.log(`1..${n}`);
  process.exitCode = failed ? 1 : 0;
}
