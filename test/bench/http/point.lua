-- wrk script: MCP 2026-07-28 tools/call requests (stateless POSTs on
-- keep-alive connections), a point select by a random key in 1..100000,
-- for either server:
--   wrk ... -s point.lua URL -- neon     select_query {"table":"bench","where":{"id":N}}
--   wrk ... -s point.lua URL -- dbhub    execute_sql {"sql":"SELECT * FROM bench WHERE id = N"}
-- Every response is checked: a call counts as good only with HTTP 200 and
-- a successful tool result that holds the row.  done() prints one line:
--   requests/s p50_us p99_us requests bad_responses socket_errors

local threads = {}
local counter = 1

function setup(thread)
   thread:set("id", counter)
   counter = counter + 1
   table.insert(threads, thread)
end

local META = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
   .. '"io.modelcontextprotocol/clientCapabilities":{}}'
local tool, make_arguments
bad = 0

function init(args)
   math.randomseed(os.time() * 100 + id)
   if args[1] == "dbhub" then
      tool = "execute_sql"
      make_arguments = function(n)
         return '{"sql":"SELECT * FROM bench WHERE id = ' .. n .. '"}'
      end
   else
      tool = "select_query"
      make_arguments = function(n)
         return '{"table":"bench","where":{"id":' .. n .. '}}'
      end
   end
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
   wrk.headers["Accept"] = "application/json, text/event-stream"
   wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
   wrk.headers["Mcp-Method"] = "tools/call"
   wrk.headers["Mcp-Name"] = tool
end

function request()
   local n = math.random(1, 100000)
   local body = '{"jsonrpc":"2.0","id":' .. n .. ',"method":"tools/call","params":{"name":"'
      .. tool .. '","arguments":' .. make_arguments(n) .. ',' .. META .. '}}'
   return wrk.format(nil, nil, nil, body)
end

-- Both servers put the result's JSON in a text item, where its quotes are
-- escaped: \"success\": true.  Every row of bench is named "item N".
function response(status, headers, body)
   if status ~= 200 or not body:find('\\"success\\": true', 1, true)
      or not body:find('item ', 1, true) or body:find('"isError":true', 1, true) then
      bad = bad + 1
      if bad == 1 then
         io.stderr:write("bad response (status " .. status .. "): " .. body:sub(1, 300) .. "\n")
      end
   end
end

function done(summary, latency, requests)
   local total_bad = 0
   for _, t in ipairs(threads) do
      total_bad = total_bad + t:get("bad")
   end
   local e = summary.errors
   io.write(string.format("%.1f %d %d %d %d %d\n",
      summary.requests / (summary.duration / 1e6),
      latency:percentile(50), latency:percentile(99),
      summary.requests, total_bad,
      e.connect + e.read + e.write + e.timeout + e.status))
end
