// Checks every tool of ai_tool_list(format), in every format, with the model
// providers' own client libraries, offline (issue 14).  Prints TAP: one
// line per tool, format and check, so the counts say how many tools each
// library accepted in each format; then bytes and tokens per format.
//
// Usage: node check.mjs DUMP    (DUMP: one "FORMAT<TAB>catalog" line each)
//
// What each check is (none calls a provider's API; "with tsc": one
// tsc --strict run for all, each catalog as the JSON form of the SDK's
// type, one result per tool and one per catalog, see typecheck()):
//   openai        ChatCompletionTool[] and Responses FunctionTool[] with
//                 tsc (the openai package's types); every array has items
//                 (the API's "array schema missing items"); ajv compiles it.
//   openai_strict the openai package's own strict helper,
//                 toStrictJsonSchema() (openai/lib/transform), must accept
//                 the parameters and leave them unchanged (nothing to add:
//                 already strict); plus the structured-outputs rules of
//                 OpenAI's guide that the helper does not enforce (only
//                 the supported keywords, nesting and size limits); tsc.
//   anthropic     Anthropic.Tool[] with tsc; tool name pattern; ajv 2020
//                 compiles input_schema.
//   mcp           the MCP SDK's Tool[] with tsc (its types.js, the type
//                 servers build); ListToolsResultSchema parses the list (zod);
//                 ajv 2020-12 in strict mode compiles every inputSchema and
//                 outputSchema; outputSchema is test/envelope's schema.
//   gemini        FunctionDeclaration[] with tsc (@google/genai's types:
//                 upper-case Type values, int64 sizes as strings);
//                 @google/genai's request conversion (the SDK's own
//                 processJsonSchema, run by generateContent with fetch
//                 replaced: no network) leaves the declarations unchanged,
//                 none TYPE_UNSPECIFIED; every key is one of the SDK's
//                 Schema / FunctionDeclaration fields (read from its
//                 genai.d.ts); Gemini's rules (no type lists, no
//                 additionalProperties, OBJECT with properties).
//   every format  @langchain/core: tool() from the JSON Schema, then
//                 convertToOpenAITool(), which must keep the schema.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { isDeepStrictEqual } from "node:util";

import Ajv2020 from "ajv/dist/2020.js";
import { toStrictJsonSchema } from "openai/lib/transform";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { GoogleGenAI } from "@google/genai";
import { tool as lcTool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const FORMATS = ["native", "openai", "openai_strict", "anthropic", "mcp", "gemini"];

// --- TAP --------------------------------------------------------------------
let n = 0;
let failed = 0;
const counts = {};
function ok(pass, name, format, lib, detail) {
  n++;
  const key = `${format}\t${lib}`;
  counts[key] ??= { pass: 0, fail: 0 };
  counts[key][pass ? "pass" : "fail"]++;
  if (pass) console.log(`ok ${n} - ${format}: ${name}`);
  else {
    failed++;
    console.log(`not ok ${n} - ${format}: ${name}`);
    if (detail) for (const l of String(detail).split("\n").slice(0, 20)) console.log(`#   ${l}`);
  }
}
function attempt(fn) {
  try {
    const r = fn();
    return r === undefined || r === true ? [true, null] : [false, r];
  } catch (e) {
    return [false, e.message];
  }
}

// --- versions ---------------------------------------------------------------
const LIBS = ["openai", "@anthropic-ai/sdk", "@google/genai", "@modelcontextprotocol/sdk",
  "ajv", "@langchain/core", "typescript", "gpt-tokenizer"];
for (const lib of LIBS) {
  const pkg = JSON.parse(readFileSync(join(here, "node_modules", lib, "package.json"), "utf8"));
  console.log(`# ${lib} ${pkg.version}`);
}
console.log(`# node ${process.version}`);

// --- the dump ---------------------------------------------------------------
const catalogs = {};
for (const line of readFileSync(process.argv[2], "utf8").split("\n")) {
  if (!line.trim()) continue;
  const tab = line.indexOf("\t");
  catalogs[line.slice(0, tab)] = JSON.parse(line.slice(tab + 1));
}
for (const f of FORMATS) {
  ok(Array.isArray(catalogs[f]) && catalogs[f].length > 0, `ai_tool_list('${f}') is a non-empty list`, f, "dump");
  catalogs[f] ??= [];
}
const toolName = (f, t) => (f.startsWith("openai") ? t.function?.name : t.name) ?? "?";
const schemaOf = (f, t) =>
  f.startsWith("openai") ? t.function?.parameters :
  f === "anthropic" ? t.input_schema :
  f === "mcp" ? t.inputSchema : t.parameters;

// --- schema walking ---------------------------------------------------------
// every subschema of a JSON Schema, with its path and depth
function walk(schema, visit, path = "#", depth = 0) {
  if (schema === null || typeof schema !== "object") return;
  visit(schema, path, depth);
  for (const k of ["items", "additionalProperties", "not"])
    if (schema[k] && typeof schema[k] === "object") walk(schema[k], visit, `${path}/${k}`, depth + 1);
  for (const k of ["anyOf", "oneOf", "allOf", "prefixItems"])
    if (Array.isArray(schema[k])) schema[k].forEach((s, i) => walk(s, visit, `${path}/${k}/${i}`, depth));
  for (const k of ["properties", "$defs"])
    if (schema[k]) for (const [p, s] of Object.entries(schema[k])) walk(s, visit, `${path}/${k}/${p}`, depth + 1);
}
function arraysHaveItems(schema) {
  const bad = [];
  walk(schema, (s, p) => {
    const t = [].concat(s.type ?? []);
    if (t.includes("array") && s.items === undefined) bad.push(p);
  });
  return bad.length ? `arrays without items at ${bad.join(", ")}` : undefined;
}

function sortRequired(x) {
  if (Array.isArray(x)) return x.map(sortRequired);
  if (x === null || typeof x !== "object") return x;
  return Object.fromEntries(Object.entries(x).map(([k, v]) =>
    [k, k === "required" && Array.isArray(v) ? [...v].sort() :
      k === "properties" ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, sortRequired(s)])) :
      sortRequired(v)]));
}

// --- ajv ----------------------------------------------------------------------
// strict: unknown keywords, union types, type-specific keywords without
// their type are errors
const ajvStrict = new Ajv2020({ strict: true, allErrors: true });
// outputSchema, the envelope schema: as test/envelope compiles it (strict,
// but its if/then rules name properties declared elsewhere and narrow types)
const ajvEnvelope = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
// the other formats: a valid JSON Schema is enough (type lists allowed;
// "nullable" is Gemini's, not JSON Schema's)
const ajvLoose = new Ajv2020({ strict: false, allErrors: true });
function compiles(ajv, schema) {
  return attempt(() => { ajv.compile(schema); });
}

// --- OpenAI structured-outputs rules (platform.openai.com/docs/guides/structured-outputs) ---
const STRICT_KEYWORDS = new Set(["type", "description", "title", "properties", "required",
  "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs",
  "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "multipleOf", "minItems", "maxItems"]);
function strictRules(schema) {
  const bad = [];
  let props = 0;
  let enums = 0;
  if (schema.type !== "object" || schema.anyOf) bad.push("the root must be an object, not anyOf");
  walk(schema, (s, p, depth) => {
    for (const k of Object.keys(s)) if (!STRICT_KEYWORDS.has(k)) bad.push(`${p}: keyword ${k} is not supported`);
    if (depth > 10) bad.push(`${p}: nested more than 10 levels`);
    const t = [].concat(s.type ?? []);
    if (t.includes("object") || s.properties) {
      if (s.additionalProperties !== false) bad.push(`${p}: additionalProperties must be false`);
      const keys = Object.keys(s.properties ?? {});
      props += keys.length;
      if (!isDeepStrictEqual([...(s.required ?? [])].sort(), [...keys].sort()))
        bad.push(`${p}: every property must be required`);
    }
    if (s.enum) enums += s.enum.length;
  });
  if (props > 5000) bad.push(`${props} properties, more than 5000`);
  if (enums > 1000) bad.push(`${enums} enum values, more than 1000`);
  return bad.length ? bad.join("\n") : undefined;
}

// --- Gemini: the SDK's Schema fields, from its own declarations -----------------
const genaiDts = readFileSync(join(here, "node_modules/@google/genai/dist/genai.d.ts"), "utf8");
function interfaceFields(name) {
  const m = genaiDts.match(new RegExp(`export declare interface ${name} \\{([\\s\\S]*?)\\n\\}`));
  if (!m) throw new Error(`interface ${name} not found in @google/genai's genai.d.ts`);
  return new Set([...m[1].matchAll(/^ {4}(\w+)\??:/gm)].map((x) => x[1]));
}
const SCHEMA_FIELDS = interfaceFields("Schema");
const DECLARATION_FIELDS = interfaceFields("FunctionDeclaration");
function geminiRules(decl) {
  const bad = [];
  for (const k of Object.keys(decl)) if (!DECLARATION_FIELDS.has(k)) bad.push(`FunctionDeclaration has no field ${k}`);
  walk(decl.parameters ?? {}, (s, p) => {
    for (const k of Object.keys(s)) if (!SCHEMA_FIELDS.has(k)) bad.push(`${p}: Schema has no field ${k}`);
    if (Array.isArray(s.type)) bad.push(`${p}: a type list`);
    if (s.type && s.anyOf) bad.push(`${p}: type beside anyOf`);
    if (s.type === "OBJECT" && !Object.keys(s.properties ?? {}).length) bad.push(`${p}: an object without properties`);
  });
  return bad.length ? bad.join("\n") : undefined;
}

// The SDK converts declarations while building a request: run
// generateContent with fetch replaced, and keep what it would have sent.
async function geminiConverted(decls) {
  const realFetch = globalThis.fetch;
  let body = null;
  globalThis.fetch = async (url, init) => {
    body = JSON.parse(init.body);
    return new Response(JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "ok" }] } }] }),
      { status: 200, headers: { "content-type": "application/json" } });
  };
  try {
    const ai = new GoogleGenAI({ apiKey: "offline-test" });
    await ai.models.generateContent({
      model: "gemini-2.5-flash",
      contents: "list the tables",
      config: { tools: [{ functionDeclarations: structuredClone(decls) }] },
    });
  } finally {
    globalThis.fetch = realFetch;
  }
  return body?.tools?.[0]?.functionDeclarations;
}

// --- tsc: the packages' own TypeScript types ---------------------------------------
// Each format's catalog, as the JSON it is, against its SDK's type: one file
// per variant, one constant per tool on its own line (a diagnostic's line
// names the tool), each an object literal, so that tsc's excess-property
// check refuses a keyword the type lacks.  The type is Json<T>, what
// JSON.parse gives for a value of the SDK's type T: the same object shapes,
// with a string enum's members written as their values (JSON holds no TS
// enum: the SDK sends Type.OBJECT as "OBJECT"), so "object" is refused
// where the SDK's Type is upper case, and 5 where it declares a string.
const JSON_TS = `// the JSON form of an SDK type T (see check.mjs)
export type Json<T> =
  T extends string ? \`\${T}\` :
  T extends number | boolean | null | undefined ? T :
  T extends readonly (infer U)[] ? Json<U>[] :
  T extends object ? { [K in keyof T]: Json<T[K]> } :
  T;
`;
// file: [import, the SDK's type, the catalog's format, its entries as sent];
// the variants are the README's (Responses API; Gemini's parametersJsonSchema)
const asJsonSchemaDeclarations = (anthropic) =>
  anthropic.map(({ name, description, input_schema }) => ({ name, description, parametersJsonSchema: input_schema }));
const TSC_FILES = {
  openai: ['import type { ChatCompletionTool } from "openai/resources/chat/completions";',
    "ChatCompletionTool", "openai", (c) => c.openai],
  openai_responses: ['import type { FunctionTool } from "openai/resources/responses/responses";',
    "FunctionTool", "openai", (c) => c.openai.map((t) => ({ type: "function", ...t.function, strict: false }))],
  openai_strict: ['import type { ChatCompletionTool } from "openai/resources/chat/completions";',
    "ChatCompletionTool", "openai_strict", (c) => c.openai_strict],
  openai_strict_responses: ['import type { FunctionTool } from "openai/resources/responses/responses";',
    "FunctionTool", "openai_strict", (c) => c.openai_strict.map((t) => ({ type: "function", ...t.function }))],
  anthropic: ['import type { Tool } from "@anthropic-ai/sdk/resources/messages";',
    "Tool", "anthropic", (c) => c.anthropic],
  mcp: ['import type { Tool } from "@modelcontextprotocol/sdk/types.js";',
    "Tool", "mcp", (c) => c.mcp],
  gemini: ['import type { FunctionDeclaration } from "@google/genai";',
    "FunctionDeclaration", "gemini", (c) => c.gemini],
  gemini_json_schema: ['import type { FunctionDeclaration } from "@google/genai";',
    "FunctionDeclaration", "anthropic", (c) => asJsonSchemaDeclarations(c.anthropic)],
};
function typecheck() {
  // inside test/catalog: tsc finds node_modules as node does (package exports)
  const dir = mkdtempSync(join(here, ".tsc."));
  writeFileSync(join(dir, "json.ts"), JSON_TS);
  for (const [name, [imp, type, , tools]] of Object.entries(TSC_FILES)) {
    const lines = [imp + ' import type { Json } from "./json.js";',
      ...tools(catalogs).map((t, i) => `export const t${i}: Json<${type}> = ${JSON.stringify(t)};`)];
    writeFileSync(join(dir, `${name}.ts`), lines.join("\n") + "\n");
  }
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, skipLibCheck: true, module: "nodenext",
      moduleResolution: "nodenext", target: "es2022", typeRoots: [], types: [] },
    include: ["json.ts", ...Object.keys(TSC_FILES).map((f) => `${f}.ts`)],
  }));
  const r = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "."],
    { encoding: "utf8", cwd: dir });
  const diags = {};
  for (const line of (r.stdout + r.stderr).split("\n")) {
    const m = line.match(/^(\w+)\.ts\((\d+),\d+\): (.*)$/);
    // line 1 is the import: a diagnostic there (a missing type) is no tool's
    if (m && m[1] in TSC_FILES && Number(m[2]) >= 2) (diags[`${m[1]}:${Number(m[2]) - 2}`] ??= []).push(m[3]);
    else if (line.trim() && !/^\s/.test(line)) (diags["*"] ??= []).push(line);
  }
  if (r.status !== 0 && Object.keys(diags).length === 0)
    diags["*"] = [`tsc exited with ${r.status ?? r.signal}`, r.error?.message ?? ""];
  rmSync(dir, { recursive: true, force: true });
  return { diags, status: r.status };
}

// --- the checks -------------------------------------------------------------------
const envelope = (() => {
  const strip = (o) => Array.isArray(o) ? o.map(strip) :
    o && typeof o === "object" ? Object.fromEntries(Object.entries(o)
      .filter(([k, v]) => !(["description", "title", "$comment", "$id", "$schema"].includes(k) && typeof v === "string"))
      .map(([k, v]) => [k, strip(v)])) : o;
  return strip(JSON.parse(readFileSync(join(here, "../envelope/response.schema.json"), "utf8")));
})();

const ts = typecheck();
// the typecheck itself must have run (a missing package is not a pass)
ok(!ts.diags["*"], "tsc ran", "all", "typescript", (ts.diags["*"] ?? []).join("\n"));
function tscResult(file, i) {
  return ts.diags[`${file}:${i}`];
}
// one result per catalog (and Responses variant): the whole list
{
  const errors = [];
  for (const [file, [, type, format]] of Object.entries(TSC_FILES)) {
    const diags = Object.entries(ts.diags).filter(([k]) => k.startsWith(`${file}:`)).flatMap(([, v]) => v);
    const codes = {};
    for (const d of diags) { const c = d.match(/TS\d+/)?.[0] ?? "?"; codes[c] = (codes[c] ?? 0) + 1; }
    errors.push(`${file} ${diags.length}` + (diags.length ?
      ` (${Object.entries(codes).map(([c, k]) => `${c} ${k}`).join(", ")})` : ""));
    ok(!ts.diags["*"] && diags.length === 0, `the catalog is a ${type}[] as JSON (${file}, tsc --strict)`,
      format, "tsc catalog", `${diags.length} errors\n${diags.slice(0, 10).join("\n")}`);
  }
  console.log(`# tsc errors per catalog: ${errors.join(", ")}`);
}

for (const f of FORMATS) {
  const tools = catalogs[f];
  tools.forEach((t, i) => {
    const name = toolName(f, t);
    const schema = schemaOf(f, t);
    let r;
    // Gemini's Schema: the SDK's Type enum, upper case
    ok(schema && schema.type === (f === "gemini" ? "OBJECT" : "object"), `${name}: parameters are an object schema`, f, "shape");

    if (f === "openai" || f === "openai_strict") {
      r = tscResult(f, i);
      ok(!r, `${name}: a ChatCompletionTool (openai types, tsc)`, f, "openai tsc", r?.join("\n"));
      r = tscResult(`${f}_responses`, i);
      ok(!r, `${name}: a Responses FunctionTool (openai types, tsc)`, f, "openai tsc", r?.join("\n"));
      r = arraysHaveItems(schema);
      ok(!r, `${name}: every array has items`, f, "openai rules", r);
    }
    if (f === "openai") {
      r = compiles(ajvLoose, schema);
      ok(r[0], `${name}: a valid JSON Schema (ajv)`, f, "ajv", r[1]);
    }
    if (f === "openai_strict") {
      ok(t.function?.strict === true, `${name}: strict: true`, f, "openai rules");
      let out;
      r = attempt(() => { out = toStrictJsonSchema(schema); });
      ok(r[0], `${name}: accepted by openai's toStrictJsonSchema()`, f, "openai helper", r[1]);
      // "required" is a set: the helper lists it in properties' order
      ok(r[0] && isDeepStrictEqual(sortRequired(out), sortRequired(schema)),
        `${name}: already strict (toStrictJsonSchema() changes nothing)`,
        f, "openai helper", r[0] ? `${JSON.stringify(out).slice(0, 600)}` : null);
      r = strictRules(schema);
      ok(!r, `${name}: structured-outputs rules (supported keywords, all required, closed objects)`, f, "openai rules", r);
    }
    if (f === "anthropic") {
      r = tscResult("anthropic", i);
      ok(!r, `${name}: an Anthropic Tool (@anthropic-ai/sdk types, tsc)`, f, "anthropic tsc", r?.join("\n"));
      ok(/^[a-zA-Z0-9_-]{1,64}$/.test(name), `${name}: a valid Anthropic tool name`, f, "anthropic rules");
      r = compiles(ajvLoose, schema);
      ok(r[0], `${name}: input_schema is a valid JSON Schema 2020-12 (ajv)`, f, "ajv", r[1]);
    }
    if (f === "mcp") {
      r = compiles(ajvStrict, schema);
      ok(r[0], `${name}: inputSchema compiles in ajv strict mode (2020-12)`, f, "ajv strict", r[1]);
      r = compiles(ajvEnvelope, t.outputSchema ?? {});
      ok(t.outputSchema && r[0], `${name}: outputSchema compiles in ajv strict mode (2020-12, as test/envelope)`, f, "ajv strict", r[1]);
      ok(isDeepStrictEqual(t.outputSchema, envelope), `${name}: outputSchema is test/envelope/response.schema.json`, f, "envelope");
      r = ListToolsResultSchema.safeParse({ tools: [t] });
      ok(r.success, `${name}: an MCP Tool (SDK ListToolsResultSchema)`, f, "mcp sdk", r.error?.message);
      r = tscResult("mcp", i);
      ok(!r, `${name}: an MCP Tool (@modelcontextprotocol/sdk types, tsc)`, f, "mcp tsc", r?.join("\n"));
      ok(t.annotations && typeof t.annotations.readOnlyHint === "boolean", `${name}: has annotations`, f, "mcp sdk");
    }
    if (f === "gemini") {
      r = tscResult("gemini", i);
      ok(!r, `${name}: a FunctionDeclaration (@google/genai types, tsc)`, f, "genai tsc", r?.join("\n"));
      r = geminiRules(t);
      ok(!r, `${name}: only the SDK's Schema fields; Gemini's rules`, f, "genai rules", r);
    }
    // LangChain: a tool from the JSON Schema, converted to OpenAI's shape
    r = attempt(() => {
      const lt = lcTool(async () => "", { name, description: t.description ?? t.function?.description ?? "", schema });
      const conv = convertToOpenAITool(lt, f === "openai_strict" ? { strict: true } : undefined);
      if (!isDeepStrictEqual(conv.function.parameters, schema))
        return `the converted parameters differ: ${JSON.stringify(conv.function.parameters).slice(0, 400)}`;
      if (f === "openai_strict" && conv.function.strict !== true) return "strict was lost";
    });
    ok(r[0], `${name}: @langchain/core tool() and convertToOpenAITool() keep the schema`, f, "langchain", r[1]);
  });
}

// the MCP list as a whole, as tools/list answers it
{
  const r = ListToolsResultSchema.safeParse({ tools: catalogs.mcp });
  ok(r.success, "the whole list parses as a ListToolsResult (SDK)", "mcp", "mcp sdk", r.error?.message);
}

// Gemini: the SDK's conversion, for the whole list at once
{
  let converted;
  const r = await geminiConverted(catalogs.gemini).then((c) => { converted = c; return [true]; },
    (e) => [false, e.message]);
  ok(r[0] && Array.isArray(converted), "the SDK converts the declarations (generateContent, offline)",
    "gemini", "genai sdk", r[1]);
  catalogs.gemini.forEach((t, i) => {
    const c = converted?.[i];
    let unspecified = false;
    walk(c?.parameters ?? {}, (s) => { if (s.type === "TYPE_UNSPECIFIED") unspecified = true; });
    ok(c && !unspecified && isDeepStrictEqual(c, t),
      `${t.name}: @google/genai's conversion changes nothing (already the API's spelling)`,
      "gemini", "genai sdk", c ? JSON.stringify(c).slice(0, 600) : "missing");
  });
}

// Gemini's parametersJsonSchema (the README's other way): the anthropic
// catalog's input_schema, which the SDK sends as it is
{
  const decls = asJsonSchemaDeclarations(catalogs.anthropic);
  const r = await geminiConverted(decls).then((c) => [isDeepStrictEqual(c, decls), JSON.stringify(c ?? null).slice(0, 600)],
    (e) => [false, e.message]);
  ok(r[0], "input_schema as parametersJsonSchema: @google/genai sends it unchanged", "anthropic", "genai sdk", r[1]);
}

// --- what the catalog costs a model ------------------------------------------------
console.log("# format         tools   bytes  tokens (o200k, JSON as sent)");
for (const f of FORMATS) {
  const text = JSON.stringify(catalogs[f]);
  console.log(`# ${f.padEnd(14)} ${String(catalogs[f].length).padStart(5)} ${String(Buffer.byteLength(text)).padStart(7)} ${String(encode(text).length).padStart(7)}`);
  if (f === "mcp") {
    const noOut = JSON.stringify(catalogs.mcp.map(({ outputSchema, ...rest }) => rest));
    console.log(`# ${"mcp, no outputSchema".padEnd(20)} ${String(Buffer.byteLength(noOut)).padStart(7)} ${String(encode(noOut).length).padStart(7)}`);
  }
}
console.log("# checks per format and library:");
for (const [key, c] of Object.entries(counts)) console.log(`#   ${key.replace("\t", " / ")}: ${c.pass} passed, ${c.fail} failed`);
console.log(`1..${n}`);
process.exitCode = failed ? 1 : 0;
