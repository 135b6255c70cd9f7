#!/usr/bin/env bash
# The bearer-token authentication of neon-ai-tools-mcp (src/mcp/auth/auth*.c,
# issue 16 item 3), tested without a server.  Prints TAP.
#
#   1. builds test/mcp/auth/auth_test (make -C src/mcp auth-test): one
#      test, "no compiler warning";
#   2. makes throw-away keys and tokens with the openssl CLI in a
#      temporary directory (RSA 2048, EC P-256, an HMAC secret, static
#      tokens; nothing is committed): JWTs valid and broken in every way
#      auth_test.c checks;
#   3. runs auth_test DIR, whose tests carry on the numbering;
#   4. one test: nothing auth_test wrote to stderr (its logs, at -vv)
#      holds a token, the secret or a token's hash;
#   5. one test: auth_test again under valgrind, no leak and no error
#      (skipped when valgrind is missing or NAT_AUTH_VALGRIND=0).
#
# Usage: test/mcp/auth/run.sh     (PG_CONFIG=... names the pg_config)
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nat_auth.XXXXXX")
trap '[ -n "${NAT_AUTH_KEEP:-}" ] && echo "# kept $TMP" || rm -rf "$TMP"' EXIT
umask 077
n=0

tap() {   # tap OK|FAIL DESCRIPTION
    n=$((n + 1))
    if [ "$1" = OK ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# --- 1. build -----------------------------------------------------------------
if ! make -s -C "$ROOT/src/mcp" auth-test PG_CONFIG="${PG_CONFIG:-pg_config}" >"$TMP/build.log" 2>&1; then
    sed 's/^/# /' "$TMP/build.log"
    tap FAIL "auth_test builds"
    echo "1..$n"
    exit 1
fi
if grep -q 'warning:' "$TMP/build.log"; then
    sed 's/^/# /' "$TMP/build.log"
    tap FAIL "auth_test builds without compiler warnings"
else
    tap OK "auth_test builds without compiler warnings"
fi

# --- 2. keys and tokens --------------------------------------------------------
D=$TMP/data
mkdir -p "$D/tok"
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '=\n'; }
hexof() { od -An -tx1 -v "$1" | tr -d ' \n'; }
# flip the first byte of stdin (a "one byte changed" signature)
flip() { perl -0777 -pe 'substr($_, 0, 1) = chr(ord(substr($_, 0, 1)) ^ 0x01)'; }
# DER ECDSA-Sig-Value -> the 64 bytes R || S of JWS (RFC 7518 section 3.4)
der_to_raw() {
    openssl asn1parse -inform DER | sed -n 's/.*INTEGER *://p' |
        perl -ne 'chomp; print pack("H*", ("0" x (64 - length)) . $_)'
}
gen() { openssl genpkey "$@" 2>/dev/null; }

gen -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$D/rsa.key"
openssl pkey -in "$D/rsa.key" -pubout -out "$D/rsa.pub"
openssl req -x509 -new -key "$D/rsa.key" -subj /CN=nat-auth-test -days 1 -out "$D/rsa.crt" 2>/dev/null
gen -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out "$D/rsa1024.key"
openssl pkey -in "$D/rsa1024.key" -pubout -out "$D/rsa1024.pub"
gen -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$D/ec.key"
openssl pkey -in "$D/ec.key" -pubout -out "$D/ec.pub"
gen -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$D/ec2.key"
gen -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out "$D/ec384.key"
openssl pkey -in "$D/ec384.key" -pubout -out "$D/ec384.pub"
gen -algorithm ED25519 -out "$D/ed.key"
openssl pkey -in "$D/ed.key" -pubout -out "$D/ed.pub"
openssl rand -hex 32 >"$D/hs.secret"      # 64 characters: the secret is the text
openssl rand -hex 8 >"$D/short.secret"    # 16 characters: too short
printf 'not a key\n' >"$D/garbage.pub"

# jwt NAME ALG KEY HEADER PAYLOAD [flip|der]: sign HEADER.PAYLOAD (KEY: a
# private key file, or hex:HEX for an HMAC key) and write tok/NAME
jwt() {
    local name=$1 alg=$2 key=$3 header=$4 payload=$5 how=${6:-} input sig
    input="$(printf %s "$header" | b64url).$(printf %s "$payload" | b64url)"
    case $alg in
        HS256) printf %s "$input" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:${key#hex:}" -binary >"$TMP/sig" ;;
        RS256) printf %s "$input" | openssl dgst -sha256 -sign "$key" -binary >"$TMP/sig" ;;
        ES256)
            printf %s "$input" | openssl dgst -sha256 -sign "$key" -binary >"$TMP/sig.der"
            if [ "$how" = der ]; then cp "$TMP/sig.der" "$TMP/sig"; else der_to_raw <"$TMP/sig.der" >"$TMP/sig"; fi ;;
        none) : >"$TMP/sig" ;;
    esac
    if [ "$how" = flip ]; then flip <"$TMP/sig" >"$TMP/sig.f" && mv "$TMP/sig.f" "$TMP/sig"; fi
    sig=$(b64url <"$TMP/sig")
    printf '%s' "$input.$sig" >"$D/tok/$name"
}

now=$(date +%s)
HS="hex:$(tr -d '\n' <"$D/hs.secret" | od -An -tx1 -v | tr -d ' \n')"
PEMKEY="hex:$(hexof "$D/rsa.pub")"
H_HS='{"alg":"HS256","typ":"JWT"}'
H_RS='{"alg":"RS256","typ":"JWT"}'
H_ES='{"alg":"ES256","typ":"JWT"}'
P_OK="{\"role\":\"alice\",\"exp\":$((now + 600)),\"iat\":$now}"
AUD=https://mcp.example:8443/mcp
ISS=https://issuer.example

jwt hs_valid HS256 "$HS" "$H_HS" "$P_OK"
# expired 10 s ago, within the default 30 s leeway: made again just before
# each run of auth_test (a loaded machine can take 20 s from here to there)
leeway_token() {
    jwt hs_leeway HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$(($(date +%s) - 10))}"
}
leeway_token
jwt hs_expired HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$((now - 3600))}"
jwt hs_nbf_future HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$((now + 7200)),\"nbf\":$((now + 3600))}"
jwt hs_nbf_past HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$((now + 600)),\"nbf\":$((now - 60)).5}"
jwt hs_iat_future HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$((now + 7200)),\"iat\":$((now + 3600))}"
jwt hs_no_exp HS256 "$HS" "$H_HS" '{"role":"alice"}'
jwt hs_exp_string HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":\"$((now + 600))\"}"
jwt hs_badsig HS256 "$HS" "$H_HS" "$P_OK" flip
jwt hs_no_role HS256 "$HS" "$H_HS" "{\"exp\":$((now + 600))}"
jwt hs_role_number HS256 "$HS" "$H_HS" "{\"role\":42,\"exp\":$((now + 600))}"
jwt hs_role_empty HS256 "$HS" "$H_HS" "{\"role\":\"\",\"exp\":$((now + 600))}"
jwt hs_role_long HS256 "$HS" "$H_HS" "{\"role\":\"$(printf 'r%.0s' {1..64})\",\"exp\":$((now + 600))}"
jwt hs_role_63 HS256 "$HS" "$H_HS" "{\"role\":\"$(printf 'r%.0s' {1..63})\",\"exp\":$((now + 600))}"
jwt hs_role_ctrl HS256 "$HS" "$H_HS" "{\"role\":\"al\\u0001ice\",\"exp\":$((now + 600))}"
jwt hs_role_nul HS256 "$HS" "$H_HS" "{\"role\":\"alice\\u0000admin\",\"exp\":$((now + 600))}"
jwt hs_role_utf8 HS256 "$HS" "$H_HS" "{\"role\":\"r\\u00f4le\",\"exp\":$((now + 600))}"
jwt hs_nested HS256 "$HS" "$H_HS" "{\"app_metadata\":{\"role\":\"bob\"},\"exp\":$((now + 600))}"
jwt hs_quoted HS256 "$HS" "$H_HS" "{\"https://example.com/claims\":{\"role\":\"carol\"},\"exp\":$((now + 600))}"
jwt hs_aud_iss HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$((now + 600)),\"aud\":\"$AUD\",\"iss\":\"$ISS\"}"
jwt hs_aud_array HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$((now + 600)),\"aud\":[\"other\",\"$AUD\"],\"iss\":\"$ISS\"}"
jwt hs_aud_wrong HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$((now + 600)),\"aud\":\"https://other.example/mcp\",\"iss\":\"$ISS\"}"
jwt hs_aud_prefix HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$((now + 600)),\"aud\":\"$AUD/x\",\"iss\":\"$ISS\"}"
jwt hs_iss_wrong HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$((now + 600)),\"aud\":\"$AUD\",\"iss\":\"https://evil.example\"}"
jwt hs_no_aud HS256 "$HS" "$H_HS" "{\"role\":\"alice\",\"exp\":$((now + 600)),\"iss\":\"$ISS\"}"
jwt hs_alg_lower HS256 "$HS" '{"alg":"hs256"}' "$P_OK"
jwt hs_alg_hs512 HS256 "$HS" '{"alg":"HS512"}' "$P_OK"
jwt hs_no_alg HS256 "$HS" '{"typ":"JWT"}' "$P_OK"
jwt hs_crit HS256 "$HS" '{"alg":"HS256","crit":["exp"],"exp":1}' "$P_OK"
jwt hs_header_array HS256 "$HS" '["HS256"]' "$P_OK"
jwt hs_payload_array HS256 "$HS" "$H_HS" '["alice"]'
jwt hs_payload_trailing HS256 "$HS" "$H_HS" "$P_OK x"
jwt none_empty none - '{"alg":"none","typ":"JWT"}' "$P_OK"
printf '%s' "$(cat "$D/tok/none_empty")AAAA" >"$D/tok/none_sig"
jwt confusion HS256 "$PEMKEY" "$H_HS" "$P_OK"
jwt rs_valid RS256 "$D/rsa.key" "$H_RS" "$P_OK"
jwt rs_badsig RS256 "$D/rsa.key" "$H_RS" "$P_OK" flip
jwt rs_as_hs RS256 "$D/rsa.key" "$H_HS" "$P_OK"
jwt rs_small_key RS256 "$D/rsa1024.key" "$H_RS" "$P_OK"
jwt rs_expired RS256 "$D/rsa.key" "$H_RS" "{\"role\":\"alice\",\"exp\":$((now - 3600))}"
for i in 1 2 3 4 5 6 7 8; do
    jwt "es_valid_$i" ES256 "$D/ec.key" "$H_ES" "{\"role\":\"erin\",\"exp\":$((now + 600)),\"n\":$i}"
done
jwt es_badsig ES256 "$D/ec.key" "$H_ES" "$P_OK" flip
jwt es_der ES256 "$D/ec.key" "$H_ES" "$P_OK" der
jwt es_other_key ES256 "$D/ec2.key" "$H_ES" "$P_OK"
jwt es_as_rs ES256 "$D/ec.key" "$H_RS" "$P_OK"
# tampered: hs_valid's header and signature around another payload
IFS=. read -r th _ ts <"$D/tok/hs_valid"
printf '%s.%s.%s' "$th" "$(printf %s "{\"role\":\"postgres\",\"exp\":$((now + 600))}" | b64url)" "$ts" >"$D/tok/hs_tampered"
printf '%s=' "$(cat "$D/tok/hs_valid")" >"$D/tok/hs_padded"
tr -d '\n' <"$D/tok/hs_valid" | sed 's/\./.!/' >"$D/tok/hs_bad_char"

# static tokens: the file holds hashes only
openssl rand -hex 32 >"$D/tok/static_alice"
openssl rand -base64 48 | tr -d '\n' >"$D/tok/static_bob"       # has + / and maybe =
printf 'abc.def.ghi' >"$D/tok/static_dots"
printf 'x%.0s' {1..8192} >"$D/tok/static_8k"
hash() { printf %s "$(tr -d '\n' <"$D/tok/$1")" | sha256sum | cut -d' ' -f1; }
tr -d '\n' <"$D/tok/static_alice" >"$D/tok/x" && mv "$D/tok/x" "$D/tok/static_alice"
{
    echo "# role  sha256 of the token"
    echo
    echo "alice $(hash static_alice)"
    printf '  bob\t%s  \n' "$(hash static_bob | tr a-f A-F)"
    echo "dora $(hash static_dots)"
    echo "r$(printf '\303\264')le $(hash static_8k)"
} >"$D/tokens"
{ echo "alice $(hash static_alice)"; echo "bob 12345"; } >"$D/tokens_badhex"
{ echo "alice $(hash static_alice)"; echo "$(printf 'r%.0s' {1..64}) $(hash static_bob)"; } >"$D/tokens_badrole"
{ echo "alice $(hash static_alice)"; echo "bob $(hash static_alice)"; } >"$D/tokens_dup"
{ echo "alice $(hash static_alice) extra"; } >"$D/tokens_fields"
{ echo "# nothing here"; echo; } >"$D/tokens_empty"
chmod 600 "$D"/*.secret "$D"/tokens*
cp "$D/hs.secret" "$D/world.secret" && chmod 644 "$D/world.secret"
cp "$D/hs.secret" "$D/group.secret" && chmod 640 "$D/group.secret"

# --- 3. the unit tests -----------------------------------------------------------
leeway_token
"$ROOT/test/mcp/auth/auth_test" "$D" "$n" 2>"$TMP/stderr.log" >"$TMP/tap.out"
rc=$?
cat "$TMP/tap.out"
last=$(grep -cE '^(not )?ok [0-9]+' "$TMP/tap.out")
n=$((n + last))
if [ "$rc" -ne 0 ]; then
    sed 's/^/# stderr: /' "$TMP/stderr.log" | head -40
    tap FAIL "auth_test exits with status 0 (it exited with $rc)"
fi

# --- 4. no secret in the logs ------------------------------------------------------
leaks=0
for f in "$D"/tok/* "$D/hs.secret"; do
    s=$(tr -d '\n' <"$f")
    [ -n "$s" ] || continue
    if grep -qF -- "$s" "$TMP/stderr.log" "$TMP/tap.out"; then
        echo "# $(basename "$f") appears in the output"; leaks=1
    fi
done
while read -r _ h; do
    if grep -qiF -- "$h" "$TMP/stderr.log" "$TMP/tap.out"; then echo "# a token hash appears in the output"; leaks=1; fi
done < <(grep -E '^ *[^# ]' "$D/tokens")
if [ -s "$TMP/stderr.log" ] && [ "$leaks" -eq 0 ]; then
    tap OK "the logs ($(wc -l <"$TMP/stderr.log") lines at -vv) hold no token, secret or token hash"
else
    [ -s "$TMP/stderr.log" ] || echo "# auth_test wrote no log line: nothing was checked"
    tap FAIL "the logs hold no token, secret or token hash"
fi

# --- 5. valgrind ------------------------------------------------------------------
if [ "${NAT_AUTH_VALGRIND:-1}" = 0 ] || ! command -v valgrind >/dev/null 2>&1; then
    n=$((n + 1)); echo "ok $n # SKIP valgrind not run"
else
    leeway_token
    valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect \
        --errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
        --log-file="$TMP/valgrind.log" \
        "$ROOT/test/mcp/auth/auth_test" "$D" 0 >"$TMP/vg.out" 2>/dev/null
    vrc=$?
    vfail=$(grep -c '^not ok' "$TMP/vg.out")
    if [ "$vrc" -eq 0 ] && [ "$vfail" -eq 0 ] && [ ! -s "$TMP/valgrind.log" ]; then
        tap OK "under valgrind: no leak, no memory error ($(grep -c '^ok' "$TMP/vg.out") checks passed)"
    else
        sed 's/^/# valgrind: /' "$TMP/valgrind.log" | head -60
        grep '^not ok' "$TMP/vg.out" | sed 's/^/# under valgrind: /'
        tap FAIL "under valgrind: no leak, no memory error (exit $vrc)"
    fi
fi

echo "1..$n"
