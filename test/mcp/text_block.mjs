// What a tools/call result's text block holds under --text-block (issue 32),
// checked the same way over stdio (sdk/client.mjs) and HTTP
// (http/clients.mjs): plain node, no package of its own.
//
// Both databases hold mcp_items (id int PRIMARY KEY, name text, price
// numeric) with (1, 'apple', 1.25) and (2, 'pear', 2.5).
import assert from 'node:assert/strict';

// two rows, an envelope of some 390 characters; a misspelt column
export const ROWS = { table: 'mcp_items', order_by: 'id', where: { id: { lt: 3 } } };
export const TYPO = { table: 'mcp_items', columns: ['nme'] };

const ROW_OBJECTS = [{ id: 1, name: 'apple', price: 1.25 }, { id: 2, name: 'pear', price: 2.5 }];

// the text outside JSON strings has no whitespace
const minified = (text) => !/\s/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'));

// structuredContent: the whole envelope, whatever the text block holds
export function checkStructured(r, error) {
  const sc = r.structuredContent;
  assert.equal(typeof sc, 'object', 'structuredContent is there');
  assert.match(sc.executionTime, /ms$/, 'structuredContent keeps executionTime');
  if (error) {
    assert.equal(sc.status, 'error');
    assert.equal(sc.errorType, 'invalid_column');
    assert.equal(sc.error_type, 'resource_not_found');
    assert.equal(sc.did_you_mean, 'name');
  } else {
    assert.equal(sc.status, 'success');
    assert.equal(sc.tool, 'select_query');
    assert.deepEqual(sc.data, ROW_OBJECTS);
    assert.deepEqual(sc.columns.map((c) => c.type), ['integer', 'text', 'numeric']);
  }
}

// the text block of ROWS (error false) or TYPO (error true) in mode
export function checkText(mode, r, error) {
  assert.equal(r.content.length, 1);
  assert.equal(r.content[0].type, 'text');
  assert.equal(r.isError === true, error, 'isError');
  const text = r.content[0].text;
  if (mode === 'json') {
    const envelope = JSON.parse(text);
    if (r.structuredContent) assert.deepEqual(envelope, r.structuredContent);
    assert.equal(envelope.status, error ? 'error' : 'success', 'the whole envelope');
    assert.match(envelope.executionTime, /ms$/);
    if (!error) assert.deepEqual(envelope.data, ROW_OBJECTS);
    else assert.equal(envelope.did_you_mean, 'name');
  } else if (mode === 'compact') {
    const c = JSON.parse(text);
    assert.ok(minified(text), `no whitespace between tokens: ${text}`);
    assert.equal(Object.keys(c)[0], 'success', 'success comes first');
    for (const k of ['status', 'tool', 'operation', 'executionTime', 'error_type', 'error_code',
      'truncation', 'affected_resources', 'truncated']) {
      assert.equal(k in c, false, `${k} is left out: ${text}`);
    }
    if (error) {
      assert.equal(c.success, false);
      assert.equal(c.errorType, 'invalid_column');
      assert.match(c.error, /column "nme" does not exist/);
      assert.match(c.suggestion, /name/);
      assert.equal(c.did_you_mean, 'name');
      assert.deepEqual(c.suggested_actions, ['Use the column "name".']);
      assert.equal(c.retryable, false);
    } else {
      assert.deepEqual(c, {
        success: true, table: 'public.mcp_items', rowCount: 2,
        columns: ['id', 'name', 'price'], data: [[1, 'apple', 1.25], [2, 'pear', 2.5]],
      });
      assert.deepEqual(Object.keys(c).slice(-2), ['columns', 'data'], 'the rows come last');
    }
  } else {
    assert.doesNotMatch(text, /[\n\r]/, 'one line');
    if (error) {
      assert.match(text, /^error invalid_column: column "nme" does not exist[^"]*\. Did you mean "name"\?$/);
    } else {
      assert.equal(text, '2 rows from public.mcp_items');
    }
  }
}

// Characters the model gets for result r from a few clients (README, MCP):
//   n8nAgent   n8n 2.40's AI Agent (3.x) running the MCP Client Tool node
//              (@n8n/n8n-nodes-langchain 2.40.3: shared/runtime.js pushes
//              {response: content, structuredContent}; buildSteps.js's
//              observation is JSON.stringify of the node's items; an
//              isError result is a node error: {error: text, errorType})
//   structured a client that sends JSON.stringify(structuredContent) of a
//              success and the text of an error (n8n's toolkit path,
//              createCallTool; Claude Code as its issues report)
//   textOnly   a client that sends the text blocks (the Python SDK's
//              quickstart client, clients before 2025-06-18)
export function forwarded(r) {
  const text = r.content.map((c) => c.text).join('');
  const error = r.isError === true;
  return {
    n8nAgent: error
      ? JSON.stringify({ error: text, errorType: 'NodeOperationError' }).length
      : JSON.stringify([{ response: r.content, structuredContent: r.structuredContent }]).length,
    structured: error || !r.structuredContent ? text.length : JSON.stringify(r.structuredContent).length,
    textOnly: text.length,
  };
}

// "# measured" lines for the results of ROWS and TYPO in each mode
export function report(print, byMode) {
  for (const [what, key] of [['rows', 'ok'], ['error', 'err']]) {
    const envelope = byMode.json[key].content[0].text.length;
    const parts = Object.entries(byMode).map(([mode, rs]) => {
      const f = forwarded(rs[key]);
      return `${mode}: text ${f.textOnly}, n8n agent ${f.n8nAgent}, structured-first ${f.structured}`;
    });
    print(`# measured: ${what} answer (envelope ${envelope} characters): ${parts.join('; ')}`);
  }
}
