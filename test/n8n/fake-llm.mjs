// fake-llm.mjs: a scripted stand-in for an OpenAI-compatible chat model (no
// LLM), for run.sh's AI Agent workflow.  POST .../chat/completions: while the
// conversation has no tool answer, it asks for one call of the offered tool
// whose name ends with TOOL_SUFFIX (select_query), with TOOL_ARGS; then it
// answers with the tool's result as text.  Streaming answers too.  Each
// request is logged to stderr; FAKE_LLM_DUMP names a file that gets each
// request body, one a line.  Listens on 127.0.0.1:FAKE_LLM_PORT (8882).
import http from 'node:http';
import fs from 'node:fs';

const port = Number(process.env.FAKE_LLM_PORT || 8882);
const suffix = process.env.TOOL_SUFFIX || 'select_query';
const toolArgs = process.env.TOOL_ARGS || '{"table":"orders","columns":["id","customer","total"],"order_by":"id"}';

function reply(body) {
  const tools = (body.tools || []).map((t) => t.function?.name ?? t.name);
  const toolMsgs = (body.messages || []).filter((m) => m.role === 'tool');
  console.error(JSON.stringify({ path: 'chat/completions', model: body.model, stream: !!body.stream,
    tools, messages: (body.messages || []).map((m) => ({ role: m.role, content: typeof m.content === 'string' ? m.content.slice(0, 2000) : m.content, tool_calls: m.tool_calls })) }));
  if (toolMsgs.length === 0) {
    const name = tools.find((n) => n.endsWith(suffix));
    if (name) return { tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: toolArgs } }] };
    return { content: `no tool ending in ${suffix} among: ${tools.join(', ')}` };
  }
  return { content: 'The tool answered: ' + toolMsgs.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n') };
}

http.createServer((req, res) => {
  let data = '';
  req.on('data', (c) => (data += c));
  req.on('end', () => {
    if (!req.url.endsWith('/chat/completions')) {
      console.error(JSON.stringify({ unexpected: req.method + ' ' + req.url }));
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'only /chat/completions here' } }));
    }
    const body = JSON.parse(data || '{}');
    if (process.env.FAKE_LLM_DUMP) fs.appendFileSync(process.env.FAKE_LLM_DUMP, data + '\n');
    const msg = reply(body);
    const base = { id: 'chatcmpl-fake', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model || 'fake' };
    const finish = msg.tool_calls ? 'tool_calls' : 'stop';
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ ...base, choices: [{ index: 0, message: { role: 'assistant', content: msg.content ?? null, tool_calls: msg.tool_calls }, finish_reason: finish }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta, fr = null) => res.write('data: ' + JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: fr }] }) + '\n\n');
    if (msg.tool_calls) chunk({ role: 'assistant', tool_calls: msg.tool_calls.map((t, i) => ({ index: i, ...t })) });
    else chunk({ role: 'assistant', content: msg.content });
    chunk({}, finish);
    res.end('data: [DONE]\n\n');
  });
}).listen(port, '127.0.0.1', () => console.error(`fake-llm listening on 127.0.0.1:${port}`));
