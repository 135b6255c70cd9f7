// Validate real ai_tool_call() answers against response.schema.json and print
// TAP (issue #5).
//
// Usage: node validate.mjs ANSWERS        (ANSWERS: the output of responses.sql,
//                                          or - for standard input)
//
// Each line of ANSWERS is "EXPECT/description<TAB>answer-json", where EXPECT is
// "success" or the errorType the answer must have, optionally with its
// error_type ("constraint_violation:unique_constraint").  For every answer,
// one TAP line: the schema, the few rules JSON Schema cannot say (below) and
// EXPECT.  Then one line per category of the README's Results section (errorType and
// error_type pair) saying whether a real answer of it was seen, and a few
// synthetic answers that the schema must accept or refuse, so a schema that
// accepts everything cannot pass.  Exit status 1 on any failure.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";

const here = dirname(fileURLToPath(import.meta.url));
const schema = JSON.parse(readFileSync(join(here, "response.schema.json"), "utf8"));

// The README's Results section, one entry per errorType / error_type pair.
const CATEGORIES = [
  ["invalid_table", "resource_not_found"],
  ["invalid_column", "resource_not_found"],
  ["syntax_error", "syntax_error"],
  ["constraint_violation", "foreign_key_constraint"],
  ["constraint_violation", "unique_constraint"],
  ["constraint_violation", "not_null_constraint"],
  ["constraint_violation", "check_constraint"],
  ["dependent_objects", "foreign_key_constraint"],
  ["already_exists", "resource_exists"],
  ["invalid_input", "invalid_input"],
  ["permission_denied", "permission_denied"],
  ["read_only_violation", "read_only"],
  ["timeout", "timeout"],
  ["conflict", "serialization_failure"],
  ["conflict", "deadlock"],
  ["resource_exhausted", "resource_exhausted"],
  ["connection_error", "connection_error"],
  ["authentication_error", "permission_denied"],
  ["invalid_parameters", "invalid_request"],
  ["unknown_tool", "invalid_request"],
  ["confirmation_required", "confirmation_required"],
  ["limit_exceeded", "limit_exceeded"],
  ["tool_disabled", "permission_denied"],
  ["resource_limit", "limit_exceeded"],
  ["unknown_error", "unknown"],
];

// Categories no live answer can show, with the reason: "ok ... # SKIP".
const UNREACHABLE = {};

// Answers known to break the contract, by label: reported as TODO (not
// counted as failures) until the code is fixed; an unexpected pass says so.
const KNOWN_VIOLATIONS = {
  // none known: list "label": "reason" here to mark an answer TODO
};

// strict: unknown keywords and ambiguous schemas are errors; strictTypes is
// and strictRequired are off because the if/then rules name properties
// without repeating their "type" or "properties".
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
let validate;
try {
  validate = ajv.compile(schema);
} catch (e) {
  console.log(`not ok 1 - response.schema.json compiles\n#   ${e.message}\n1..1`);
  process.exit(1);
}

let n = 0;
let failures = 0;
const out = [];

function diag(lines) {
  for (const line of lines) {
    for (const part of String(line).split("\n")) out.push(`#   ${part}`);
  }
}

function tap(ok, description, problems = [], directive = "") {
  n += 1;
  const todo = /^TODO/i.test(directive);
  if (!ok && !todo) failures += 1;
  out.push(`${ok ? "ok" : "not ok"} ${n} - ${description}${directive ? ` # ${directive}` : ""}`);
  if (!ok) diag(problems);
}

// The branch an answer claims to be gives readable errors; the oneOf of
// the whole schema reports both branches.
const branches = {
  success: ajv.getSchema(`${schema.$id}#/$defs/success`),
  error: ajv.getSchema(`${schema.$id}#/$defs/error`),
};

function schemaErrors(answer) {
  if (validate(answer)) return [];
  const branch = answer && answer.success === true ? branches.success : branches.error;
  const errors = branch && !branch(answer) ? branch.errors : validate.errors;
  return errors.map(
    (e) => `schema: ${e.instancePath || "(top)"} ${e.message}${
      e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ""
    } [${e.schemaPath}]`,
  );
}

// What JSON Schema cannot say: equalities between keys.
function invariantErrors(answer) {
  const problems = [];
  if (answer === null || typeof answer !== "object") return problems;
  if ("error_code" in answer && answer.error_code !== answer.sqlState)
    problems.push(`error_code ${answer.error_code} differs from sqlState ${answer.sqlState}`);
  const rowCounts = (obj, where) => {
    if (Array.isArray(obj.data) && typeof obj.data_text !== "string" && Number.isInteger(obj.rowCount) && obj.rowCount !== obj.data.length)
      problems.push(`${where}rowCount ${obj.rowCount} but data has ${obj.data.length} entries`);
    if (Array.isArray(obj.columns) && Array.isArray(obj.data)) {
      const names = obj.columns.map((c) => c && c.name);
      if (new Set(names).size !== names.length) problems.push(`${where}columns repeat a name: ${names}`);
      obj.data.forEach((row, i) => {
        if (row && typeof row === "object" && !Array.isArray(row)) {
          const keys = Object.keys(row);
          if (keys.length !== names.length || keys.some((k) => !names.includes(k)))
            problems.push(`${where}data[${i}] keys ${JSON.stringify(keys.sort())} are not the columns ${JSON.stringify([...names].sort())}`);
        }
      });
    }
  };
  if (answer.success === true) {
    rowCounts(answer, "");
    if (answer.tool === "execute_sql" && !("columns" in answer) && Array.isArray(answer.data))
      answer.data.forEach((s, i) => s && typeof s === "object" && rowCounts(s, `data[${i}].`));
  }
  return problems;
}

function expectationErrors(expect, answer) {
  if (answer === null || typeof answer !== "object") return ["not a JSON object"];
  if (expect === "success")
    return answer.success === true ? [] : [`expected success, got ${answer.errorType}/${answer.error_type}: ${answer.error}`];
  const [errorType, errorTypePortable] = expect.split(":");
  const problems = [];
  if (answer.success !== false) problems.push(`expected errorType ${errorType}, got a success`);
  else if (answer.errorType !== errorType)
    problems.push(`expected errorType ${errorType}, got ${answer.errorType}/${answer.error_type}: ${answer.error}`);
  else if (errorTypePortable && answer.error_type !== errorTypePortable)
    problems.push(`expected error_type ${errorTypePortable}, got ${answer.error_type}`);
  return problems;
}

// --- the real answers ---------------------------------------------------------
const source = process.argv[2];
if (!source) {
  console.error("usage: node validate.mjs ANSWERS|-");
  process.exit(2);
}
const text = readFileSync(source === "-" ? 0 : source, "utf8");
const seen = new Map(CATEGORIES.map(([a, b]) => [`${a}/${b}`, 0]));
let successes = 0;
let answers = 0;

text.split("\n").forEach((line, index) => {
  if (line.trim() === "") return;
  answers += 1;
  const tab = line.indexOf("\t");
  const label = tab > 0 ? line.slice(0, tab) : `line ${index + 1}`;
  const expect = label.split("/")[0];
  let answer;
  try {
    if (tab <= 0) throw new Error("no label: expected EXPECT/description<TAB>json");
    answer = JSON.parse(line.slice(tab + 1));
  } catch (e) {
    tap(false, label, [`line ${index + 1}: ${e.message}`, line.slice(0, 300)]);
    return;
  }
  const problems = [...schemaErrors(answer), ...invariantErrors(answer), ...expectationErrors(expect, answer)];
  const known = KNOWN_VIOLATIONS[label];
  if (problems.length) problems.push(`answer: ${line.slice(tab + 1, tab + 1 + 1500)}`);
  tap(problems.length === 0, label, problems, known ? `TODO contract violation: ${known}` : "");
  if (answer && answer.success === true) successes += 1;
  if (answer && answer.success === false && problems.length === 0) {
    const key = `${answer.errorType}/${answer.error_type}`;
    if (seen.has(key)) seen.set(key, seen.get(key) + 1);
  }
});

// --- every category of the README's Results section ------------------------------------
tap(successes > 0, `success answers seen (${successes})`, ["no valid success answer"]);
for (const [key, count] of seen) {
  const [errorType] = key.split("/");
  const skip = UNREACHABLE[key] || UNREACHABLE[errorType];
  if (count === 0 && skip) tap(true, `category ${key} seen`, [], `SKIP ${skip}`);
  else tap(count > 0, `category ${key} seen (${count})`, [`no valid answer of category ${key}`]);
}

// --- the schema has teeth: synthetic answers ----------------------------------
const okSelect = {
  success: true, status: "success", tool: "select_query", operation: "select", table: "public.t",
  rowCount: 1, data: [{ id: 1 }], columns: [{ name: "id", type: "integer" }], truncated: false,
  executionTime: "0.4ms",
};
const okError = {
  success: false, status: "error", tool: "select_query", operation: "select", table: "public.t",
  error: "canceling statement due to lock timeout", errorType: "timeout", error_type: "timeout",
  error_code: "55P03", sqlState: "55P03", retryable: true, suggestion: "Retry later.",
  details: { query: "SELECT * FROM public.t LIMIT $1" }, executionTime: "200.1ms",
};
const minimalUnknown = {
  success: false, status: "error", tool: "select_query", error: "boom",
  errorType: "unknown_error", error_type: "unknown",
};
// describe_table on a Citus database (the TAP test 022_citus_discovery
// checks the real answers; no Citus here)
const okDescribeCitus = {
  success: true, status: "success", tool: "describe_table", operation: "describe",
  table: "public.events", rowCount: 1, truncated: false, executionTime: "3.1ms",
  note: "The name given is a shard of the Citus table public.events, which is described instead.",
  data: [{
    schema: "public", name: "events", kind: "table", columns: [],
    citus: { table_type: "distributed", distribution_column: "tenant_id", colocation_id: 1 },
  }],
};
const withCitus = (citus) => {
  const copy = structuredClone(okDescribeCitus);
  copy.data[0].citus = citus;
  return copy;
};
const edit = (base, change) => {
  const copy = structuredClone(base);
  for (const [k, v] of Object.entries(change)) {
    if (v === undefined) delete copy[k];
    else copy[k] = v;
  }
  return copy;
};
const synthetic = [
  [true, "a plain select answer", okSelect],
  [true, "a retryable timeout answer", okError],
  [true, "the minimal unknown_error answer (nothing extracted)", minimalUnknown],
  [false, "a null at the top level", edit(okSelect, { table: null })],
  [false, "a key outside the contract", edit(okSelect, { rows: [] })],
  [false, "success without data", edit(okSelect, { data: undefined })],
  [false, "data that is not an array", edit(okSelect, { data: { id: 1 } })],
  [false, "columns without a type", edit(okSelect, { columns: [{ name: "id" }] })],
  [false, "truncated without truncation", edit(okSelect, { truncated: true, warning: "cut" })],
  [false, "truncation with an unknown reason",
    edit(okSelect, { truncated: true, warning: "cut", truncation: { reason: "time_limit", limit: 1 } })],
  [false, "truncation while not truncated", edit(okSelect, { truncation: { reason: "row_limit", limit: 1 } })],
  [false, "executionTime without its unit", edit(okSelect, { executionTime: "0.4" })],
  [false, "dryRun false (present only when true)", edit(okSelect, { dryRun: false })],
  [false, "an error key on a success", edit(okSelect, { errorType: "timeout" })],
  [false, "timeout that is not retryable", edit(okError, { retryable: false })],
  [false, "syntax_error that is retryable",
    edit(okError, { errorType: "syntax_error", error_type: "syntax_error", retryable: true })],
  [false, "errorType paired with the wrong error_type", edit(okError, { error_type: "deadlock" })],
  [false, "constraint_violation with a non-constraint error_type",
    edit(okError, { errorType: "constraint_violation", error_type: "invalid_input", retryable: false })],
  [false, "an errorType outside section 4", edit(okError, { errorType: "oops" })],
  [false, "an empty suggested_actions", edit(okError, { suggested_actions: [] })],
  [false, "an empty dependencies", edit(okError, { dependencies: [] })],
  [false, "an empty details", edit(okError, { details: {} })],
  [false, "a details key outside the contract", edit(okError, { details: { params: ["secret"] } })],
  [false, "a null inside details", edit(okError, { details: { hint: null } })],
  [false, "sqlState without error_code", edit(okError, { error_code: undefined })],
  [false, "a timeout without retryable", edit(okError, { retryable: undefined })],
  [false, "unknown_error that is retryable", edit(minimalUnknown, { retryable: true })],
  [false, "an error without errorType", edit(okError, { errorType: undefined })],
  [false, "status contradicting success", edit(okError, { status: "success" })],
  [true, "describe_table of a Citus table, a shard's name mapped (note)", okDescribeCitus],
  [true, "describe_table of a Citus local table", withCitus({ table_type: "citus_local" })],
  [false, "a Citus table type outside the four", withCitus({ table_type: "append" })],
  [false, "a Citus member without table_type", withCitus({ colocation_id: 1 })],
  [false, "a Citus member with a key outside the contract", withCitus({ table_type: "reference", shards: [] })],
  [false, "a null distribution column", withCitus({ table_type: "distributed", distribution_column: null })],
];
for (const [accept, what, answer] of synthetic) {
  const valid = validate(answer);
  tap(valid === accept, `schema ${accept ? "accepts" : "refuses"} ${what}`,
    [accept ? schemaErrors(answer).join("; ") : "the schema accepted it", JSON.stringify(answer)]);
}

out.push(`1..${n}`);
if (answers === 0) {
  out.push("# no answers read");
  failures += 1;
}
console.log(out.join("\n"));
process.exit(failures > 0 ? 1 : 0);
