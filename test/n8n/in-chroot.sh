#!/bin/bash
# Runs inside the sid chroot, from /opt/check (see run.sh): imports the
# bearer-token credentials and each workflow into a private n8n user folder
# (SQLite), then runs `n8n execute --id` on each; every run's output goes to
# out-ID.json (log lines, then the execution as JSON).
#
# Environment: MCP_URL, LLM_URL, N8N_RUNNERS_BROKER_PORT; token_east and
# token_west hold the two bearer tokens.
set -euo pipefail
cd /opt/check
export N8N_USER_FOLDER=/opt/check/home
export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false
export N8N_LOG_LEVEL=info N8N_LOG_OUTPUT=console
n8n=/opt/n8n/node_modules/.bin/n8n
echo "n8n-check: node $(node --version), n8n $($n8n --version)"

umask 077
cat >creds.json <<JSON
[{"id": "natTokenEast01", "name": "neon agent_east", "type": "httpBearerAuth",
  "data": {"token": "$(cat token_east)"}},
 {"id": "natTokenWest01", "name": "neon agent_west", "type": "httpBearerAuth",
  "data": {"token": "$(cat token_west)"}},
 {"id": "natFakeLlm0001", "name": "scripted model", "type": "openAiApi",
  "data": {"apiKey": "not-a-key", "url": "$LLM_URL"}}]
JSON
$n8n import:credentials --input=creds.json >import.log 2>&1 || { cat import.log; exit 1; }
rm -f creds.json

for wf in workflows/*.json; do
    sed "s|__MCP_URL__|$MCP_URL|g" "$wf" >wf.json
    id=$(node -p "require('./wf.json').id")
    $n8n import:workflow --input=wf.json >>import.log 2>&1 || { cat import.log; exit 1; }
    echo "n8n-check: n8n execute --id=$id   ($wf)"
    rc=0
    $n8n execute --id="$id" --rawOutput >"out-$id.json" 2>&1 || rc=$?
    echo "n8n-check: exit status $rc"
done
rm -f wf.json
