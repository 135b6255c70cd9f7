#!/usr/bin/env bash
# The ai_tool_run() types suite (issue 17): the result messages of each
# recorded model response (test/fixtures) are assigned to the provider's own
# SDK type for what is sent back, and TypeScript checks them, offline:
#
#   openai_chat.json       -> openai's ChatCompletionToolMessageParam[]
#   openai_responses.json  -> openai's ResponseInputItem.FunctionCallOutput[]
#   anthropic.json         -> @anthropic-ai/sdk's MessageParam[]
#   gemini.json            -> @google/genai's Content[]
#
# and each result also goes into the next request's message list with the
# model's own turn (ChatCompletionMessageParam[], ResponseInput,
# MessageParam[], Content[]).  A deliberately wrong result (role "tools")
# must fail the check, so the check is known to bite.  Prints TAP.
#
#   1. npm ci into test/run_types/node_modules, when it is missing or older
#      than package-lock.json (the SDKs and typescript, pinned);
#   2. a fresh database NAT_RUN_TYPES_DB (default nat_run_types) on the
#      server the PG* variables point at, with setup.sql;
#   3. psql runs ai_tool_run() on each fixture;
#   4. tsc --noEmit on one generated .ts file a dialect.
#
# Usage: PGHOST=... PGPORT=... PGUSER=... test/run_types/run.sh
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIXTURES=$HERE/../fixtures
PSQL=${PSQL:-psql}
DB=${NAT_RUN_TYPES_DB:-nat_run_types}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nat_run_types.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# shellcheck source=scripts/node-suite.sh
source "$HERE/../../scripts/node-suite.sh"
node_suite_install "$HERE" test/run_types

"$PSQL" -X -q -v ON_ERROR_STOP=1 -d postgres \
    -c "DROP DATABASE IF EXISTS \"$DB\"" -c "CREATE DATABASE \"$DB\"" >"$TMP/createdb.log" 2>&1 ||
    node_suite_fail "create database $DB" "$TMP/createdb.log"
"$PSQL" -X -q -v ON_ERROR_STOP=1 -d "$DB" -f "$HERE/setup.sql" >"$TMP/setup.log" 2>&1 ||
    node_suite_fail "setup.sql" "$TMP/setup.log"

# result DIALECT: ai_tool_run() of test/fixtures/DIALECT.json, as JSON text
result() {
    printf '%s\n' "SET search_path = tr, public;" "SELECT ai_tool_run(:'response');" |
        "$PSQL" -X -q -At -v ON_ERROR_STOP=1 -d "$DB" \
            -v response="$(cat "$FIXTURES/$1.json")" 2>"$TMP/$1.err"
}

# A file a dialect: the results as the SDK's type for them, then appended
# after the model's own turn as the next request's messages.
write_ts() {
    local dialect=$1 results=$2 fixture
    fixture=$(cat "$FIXTURES/$dialect.json")
    case $dialect in
        openai_chat) cat <<TS ;;
import type { ChatCompletion, ChatCompletionMessageParam, ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
const completion = $fixture as unknown as ChatCompletion;
export const results: ChatCompletionToolMessageParam[] = $results;
export const next: ChatCompletionMessageParam[] = [completion.choices[0].message, ...results];
TS
        openai_responses) cat <<TS ;;
import type { Response, ResponseInput, ResponseInputItem } from 'openai/resources/responses/responses';
const response = $fixture as unknown as Response;
export const results: ResponseInputItem.FunctionCallOutput[] = $results;
export const next: ResponseInput = [...(response.output as ResponseInput), ...results];
TS
        anthropic) cat <<TS ;;
import type { Message, MessageParam } from '@anthropic-ai/sdk/resources/messages';
const message = $fixture as unknown as Message;
export const results: MessageParam[] = $results;
export const next: MessageParam[] = [{ role: message.role, content: message.content }, ...results];
TS
        gemini) cat <<TS ;;
import type { Content, GenerateContentResponse } from '@google/genai';
const response = $fixture as unknown as GenerateContentResponse;
export const results: Content[] = $results;
export const next: Content[] = [response.candidates![0].content!, ...results];
TS
    esac
}

TSC=$HERE/node_modules/.bin/tsc
n=0
failed=0
check() {
    local name=$1 file=$2 expect=$3
    n=$((n + 1))
    if (cd "$HERE" && "$TSC" --noEmit --strict --target es2022 --module esnext \
        --moduleResolution bundler --lib es2022,dom --skipLibCheck \
        "$file" >"$TMP/tsc.log" 2>&1); then
        rc=0
    else
        rc=1
    fi
    # the control must fail on the value, not on something else
    if { [ "$expect" = pass ] && [ $rc -eq 0 ]; } ||
        { [ "$expect" = fail ] && [ $rc -ne 0 ] && grep -q '"tools"' "$TMP/tsc.log"; }; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name"
        sed 's/^/#   /' "$TMP/tsc.log" | head -30
        failed=$((failed + 1))
    fi
}

echo "# typescript $("$TSC" --version | awk '{print $2}'), openai $(node -p "require('$HERE/node_modules/openai/package.json').version"), @anthropic-ai/sdk $(node -p "require('$HERE/node_modules/@anthropic-ai/sdk/package.json').version"), @google/genai $(node -p "require('$HERE/node_modules/@google/genai/package.json').version")"
for dialect in openai_chat openai_responses anthropic gemini; do
    if ! res=$(result "$dialect"); then
        n=$((n + 1))
        echo "not ok $n - ai_tool_run() of $dialect.json"
        sed 's/^/#   /' "$TMP/$dialect.err"
        failed=$((failed + 1))
        continue
    fi
    echo "# $dialect: $(printf '%s' "$res" | head -c 200)..."
    write_ts "$dialect" "$res" >"$HERE/.check_$dialect.ts"
    check "ai_tool_run() of $dialect.json has the SDK's types" ".check_$dialect.ts" pass
done
# the control: a wrong role must not type-check
res=$(result openai_chat)
wrong=$(printf '%s' "$res" | sed 's/"role": "tool"/"role": "tools"/')
if [ -n "$res" ] && [ "$wrong" != "$res" ]; then
    write_ts openai_chat "$wrong" >"$HERE/.check_wrong.ts"
    check "a result with a wrong role fails the check (the check bites)" ".check_wrong.ts" fail
else
    n=$((n + 1))
    echo "not ok $n - a result with a wrong role can be made"
    failed=$((failed + 1))
fi
rm -f "$HERE"/.check_*.ts
"$PSQL" -X -q -d postgres -c "DROP DATABASE IF EXISTS \"$DB\"" >/dev/null 2>&1 || true
echo "1..$n"
[ "$failed" -eq 0 ]
