// Validate PGXN META.json documents against pgxn-meta-1.0.0.schema.json
// with ajv (the envelope suite's pinned copy, test/envelope/node_modules).
//
// Usage: node validate-meta.mjs < DOCS
//   DOCS: a JSON array of [label, document] pairs.  One line per pair:
//   "label<TAB>ok", or "label<TAB>" and ajv's errors.  Exit status 0; the
//   caller (release.pl) decides which documents must pass.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, "..", "envelope", "package.json"));
const Ajv2020 = require("ajv/dist/2020").default;

const schema = JSON.parse(readFileSync(join(here, "pgxn-meta-1.0.0.schema.json"), "utf8"));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

for (const [label, doc] of JSON.parse(readFileSync(0, "utf8"))) {
  const errors = validate(doc) ? "ok"
    : validate.errors.map((e) => `${e.instancePath || "/"} ${e.message}`).join("; ");
  console.log(`${label}\t${errors}`);
}
