/*-------------------------------------------------------------------------
 *
 * auth_test.c
 *	  Unit tests of neon-ai-tools-mcp's bearer-token authentication
 *	  (src/mcp/auth/auth*.c), printing TAP.
 *
 * Usage: auth_test DIR FIRST
 *
 * DIR holds the keys, secrets, token files and tokens (DIR/tok/NAME) that
 * run.sh made with the openssl CLI; FIRST is the number of TAP tests
 * printed before this program's (its tests are numbered from FIRST + 1;
 * run.sh prints the plan).  The exit status is 0 even when a test fails:
 * the TAP lines say so.  Logs go to stderr at -vv, for run.sh to search
 * for secrets.
 *
 * IDENTIFICATION
 *	  test/mcp/auth/auth_test.c
 *
 *-------------------------------------------------------------------------
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth/auth.h"
#include "base/base.h"

#define RESOURCE "https://mcp.example:8443/mcp"
#define ISSUER "https://issuer.example"
#define AS_URL "https://login.example/realms/db"
#define NTHREADS 4
#define NROUNDS 50

static const char *dir;
static int	test_number = 0;

static void ok(bool good, const char *fmt,...) MCP_PRINTF(2, 3);
static char *path(const char *name);
static char *token(const char *name);
static char *bearer(const char *name);
static void expect(const char *what, const char *header, McpAuthStatus status,
				   const char *role);
static void expect_token(const char *name, McpAuthStatus status,
						 const char *role);
static bool configure(const McpAuthSettings *settings);
static void expect_config_error(const McpAuthSettings *settings,
								const char *what, const char *needle1,
								const char *needle2);

/*
 * One TAP line.
 */
static void
ok(bool good, const char *fmt,...)
{
	va_list		ap;

	printf("%sok %d - ", good ? "" : "not ", ++test_number);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/*
 * DIR/name, malloc'd.
 */
static char *
path(const char *name)
{
	return mcp_psprintf("%s/%s", dir, name);
}

/*
 * The token run.sh wrote to DIR/tok/name (malloc'd); the test fails and
 * ends when it is missing.
 */
static char *
token(const char *name)
{
	char	   *file = mcp_psprintf("%s/tok/%s", dir, name);
	FILE	   *f = fopen(file, "r");
	char	   *buf = mcp_malloc(16384);
	size_t		n;

	if (f == NULL)
	{
		printf("Bail out! no token file %s\n", file);
		exit(1);
	}
	n = fread(buf, 1, 16383, f);
	fclose(f);
	free(file);
	buf[n] = '\0';
	return buf;
}

/*
 * "Bearer " + the token named, malloc'd.
 */
static char *
bearer(const char *name)
{
	char	   *t = token(name);
	char	   *h = mcp_psprintf("Bearer %s", t);

	free(t);
	return h;
}

/*
 * Check a header value: the status, the role, and that the reason does not
 * quote the token.
 */
static void
expect(const char *what, const char *header, McpAuthStatus status,
	   const char *role)
{
	char	   *got_role = (char *) 0x1;
	const char *reason = NULL;
	McpAuthStatus got = mcp_auth_check(header, &got_role, &reason);
	bool		good = got == status;
	const char *tok = header ? strrchr(header, ' ') : NULL;

	if (status == MCP_AUTH_OK)
		good = good && got_role != NULL && strcmp(got_role, role) == 0;
	else
		good = good && got_role == NULL;
	good = good && reason != NULL && strchr(reason, '"') == NULL &&
		(tok == NULL || strlen(tok) < 8 || strstr(reason, tok + 1) == NULL);
	ok(good, "%s: %s%s%s (got %s%s%s, \"%s\")", what,
	   mcp_auth_status_name(status), role ? " as " : "", role ? role : "",
	   mcp_auth_status_name(got), got == MCP_AUTH_OK ? " as " : "",
	   got == MCP_AUTH_OK && got_role ? got_role : "",
	   reason ? reason : "(no reason)");
	if (got == MCP_AUTH_OK && got_role != (char *) 0x1)
		free(got_role);
}

/*
 * expect() for "Bearer <DIR/tok/name>".
 */
static void
expect_token(const char *name, McpAuthStatus status, const char *role)
{
	char	   *h = bearer(name);

	expect(name, h, status, role);
	free(h);
}

/*
 * Configure; a failure is a failed test (with the message as a comment).
 */
static bool
configure(const McpAuthSettings *settings)
{
	char	   *err = NULL;
	bool		good = mcp_auth_configure(settings, &err);

	if (!good)
		printf("# configure failed: %s\n", err);
	free(err);
	return good;
}

/*
 * The configuration must fail with a message holding both needles, and
 * leave authentication unconfigured.
 */
static void
expect_config_error(const McpAuthSettings *settings, const char *what,
					const char *needle1, const char *needle2)
{
	char	   *err = NULL;
	bool		good = !mcp_auth_configure(settings, &err);

	good = good && err != NULL && strstr(err, needle1) != NULL &&
		(needle2 == NULL || strstr(err, needle2) != NULL) &&
		!mcp_auth_enabled();
	ok(good, "refused: %s", what);
	printf("# %s\n", err ? err : "(no message)");
	free(err);
}

/* ------------------------------------------------------------------------
 * the suites
 * ------------------------------------------------------------------------ */

/*
 * HS256 with the default claim and no audience: time claims, signatures,
 * headers, role claims.
 */
static void
test_hs256(void)
{
	char	   *secret = path("hs.secret");
	McpAuthSettings s = {.jwt_secret_file = secret, .jwt_leeway_seconds = -1};

	ok(configure(&s) && mcp_auth_enabled(), "HS256: secret file accepted");
	expect_token("hs_valid", MCP_AUTH_OK, "alice");
	expect_token("hs_leeway", MCP_AUTH_OK, "alice");
	expect_token("hs_nbf_past", MCP_AUTH_OK, "alice");
	expect_token("hs_aud_iss", MCP_AUTH_OK, "alice");
	expect_token("hs_role_63", MCP_AUTH_OK,
				 "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr");
	expect_token("hs_role_utf8", MCP_AUTH_OK, "r\xc3\xb4le");
	expect_token("hs_expired", MCP_AUTH_EXPIRED, NULL);
	expect_token("hs_nbf_future", MCP_AUTH_INVALID, NULL);
	expect_token("hs_iat_future", MCP_AUTH_INVALID, NULL);
	expect_token("hs_no_exp", MCP_AUTH_INVALID, NULL);
	expect_token("hs_exp_string", MCP_AUTH_INVALID, NULL);
	expect_token("hs_badsig", MCP_AUTH_INVALID, NULL);
	expect_token("hs_tampered", MCP_AUTH_INVALID, NULL);
	expect_token("hs_no_role", MCP_AUTH_INVALID, NULL);
	expect_token("hs_role_number", MCP_AUTH_INVALID, NULL);
	expect_token("hs_role_empty", MCP_AUTH_INVALID, NULL);
	expect_token("hs_role_long", MCP_AUTH_INVALID, NULL);
	expect_token("hs_role_ctrl", MCP_AUTH_INVALID, NULL);
	expect_token("hs_role_nul", MCP_AUTH_INVALID, NULL);
	expect_token("hs_nested", MCP_AUTH_INVALID, NULL);
	expect_token("hs_alg_lower", MCP_AUTH_INVALID, NULL);
	expect_token("hs_alg_hs512", MCP_AUTH_INVALID, NULL);
	expect_token("hs_no_alg", MCP_AUTH_INVALID, NULL);
	expect_token("hs_crit", MCP_AUTH_INVALID, NULL);
	expect_token("none_empty", MCP_AUTH_INVALID, NULL);
	expect_token("none_sig", MCP_AUTH_INVALID, NULL);
	expect_token("hs_header_array", MCP_AUTH_INVALID, NULL);
	expect_token("hs_payload_array", MCP_AUTH_INVALID, NULL);
	expect_token("hs_payload_trailing", MCP_AUTH_INVALID, NULL);
	expect_token("hs_padded", MCP_AUTH_INVALID, NULL);
	expect_token("hs_bad_char", MCP_AUTH_MALFORMED, NULL);
	expect_token("rs_valid", MCP_AUTH_INVALID, NULL);
	expect_token("es_valid_1", MCP_AUTH_INVALID, NULL);
	expect_token("static_alice", MCP_AUTH_INVALID, NULL);
	free(secret);
}

/*
 * A claim path, the leeway, the audience and the issuer.
 */
static void
test_claims(void)
{
	char	   *secret = path("hs.secret");
	McpAuthSettings s = {.jwt_secret_file = secret,
		.jwt_role_claim = "app_metadata.role", .jwt_leeway_seconds = 0};

	ok(configure(&s), "claim path app_metadata.role accepted");
	expect_token("hs_nested", MCP_AUTH_OK, "bob");
	expect_token("hs_valid", MCP_AUTH_INVALID, NULL);
	expect_token("hs_leeway", MCP_AUTH_EXPIRED, NULL);

	s.jwt_role_claim = ".\"https://example.com/claims\".role";
	s.jwt_leeway_seconds = -1;
	ok(configure(&s), "quoted claim path accepted");
	expect_token("hs_quoted", MCP_AUTH_OK, "carol");
	expect_token("hs_nested", MCP_AUTH_INVALID, NULL);

	s.jwt_role_claim = NULL;
	s.jwt_audience = RESOURCE;
	s.jwt_issuer = ISSUER;
	ok(configure(&s), "audience and issuer accepted");
	expect_token("hs_aud_iss", MCP_AUTH_OK, "alice");
	expect_token("hs_aud_array", MCP_AUTH_OK, "alice");
	expect_token("hs_aud_wrong", MCP_AUTH_INVALID, NULL);
	expect_token("hs_aud_prefix", MCP_AUTH_INVALID, NULL);
	expect_token("hs_iss_wrong", MCP_AUTH_INVALID, NULL);
	expect_token("hs_no_aud", MCP_AUTH_INVALID, NULL);
	expect_token("hs_valid", MCP_AUTH_INVALID, NULL);

	/* with an authorization server, the audience defaults to the resource */
	s.jwt_audience = NULL;
	s.jwt_issuer = NULL;
	s.authorization_server = AS_URL;
	s.resource = RESOURCE;
	ok(configure(&s), "authorization server and resource accepted");
	expect_token("hs_aud_iss", MCP_AUTH_OK, "alice");
	expect_token("hs_valid", MCP_AUTH_INVALID, NULL);
	expect_token("hs_aud_wrong", MCP_AUTH_INVALID, NULL);
	free(secret);
}

/*
 * RS256 and ES256, and algorithm confusion.
 */
static void
test_public_keys(void)
{
	char	   *rsa = path("rsa.pub");
	char	   *ec = path("ec.pub");
	char	   *crt = path("rsa.crt");
	char	   *secret = path("hs.secret");
	McpAuthSettings s = {.jwt_key_file = rsa, .jwt_leeway_seconds = -1};

	ok(configure(&s), "RS256: RSA 2048 public key accepted");
	expect_token("rs_valid", MCP_AUTH_OK, "alice");
	expect_token("rs_badsig", MCP_AUTH_INVALID, NULL);
	expect_token("rs_expired", MCP_AUTH_EXPIRED, NULL);
	expect_token("rs_as_hs", MCP_AUTH_INVALID, NULL);
	expect_token("rs_small_key", MCP_AUTH_INVALID, NULL);
	expect_token("confusion", MCP_AUTH_INVALID, NULL);
	expect_token("hs_valid", MCP_AUTH_INVALID, NULL);
	expect_token("es_valid_1", MCP_AUTH_INVALID, NULL);
	expect_token("none_sig", MCP_AUTH_INVALID, NULL);

	s.jwt_key_file = crt;
	ok(configure(&s), "RS256: a certificate's RSA key accepted");
	expect_token("rs_valid", MCP_AUTH_OK, "alice");
	expect_token("rs_badsig", MCP_AUTH_INVALID, NULL);
	s.jwt_key_file = rsa;

	/* the secret and the key together: each algorithm keeps its own key */
	s.jwt_secret_file = secret;
	ok(configure(&s), "HS256 secret and RSA key together accepted");
	expect_token("confusion", MCP_AUTH_INVALID, NULL);
	expect_token("hs_valid", MCP_AUTH_OK, "alice");
	expect_token("rs_valid", MCP_AUTH_OK, "alice");

	s.jwt_secret_file = NULL;
	s.jwt_key_file = ec;
	ok(configure(&s), "ES256: EC P-256 public key accepted");
	for (int i = 1; i <= 8; i++)
	{
		char		name[32];

		snprintf(name, sizeof(name), "es_valid_%d", i);
		expect_token(name, MCP_AUTH_OK, "erin");
	}
	expect_token("es_badsig", MCP_AUTH_INVALID, NULL);
	expect_token("es_der", MCP_AUTH_INVALID, NULL);
	expect_token("es_other_key", MCP_AUTH_INVALID, NULL);
	expect_token("es_as_rs", MCP_AUTH_INVALID, NULL);
	expect_token("rs_valid", MCP_AUTH_INVALID, NULL);
	expect_token("hs_valid", MCP_AUTH_INVALID, NULL);
	free(rsa);
	free(ec);
	free(crt);
	free(secret);
}

/*
 * Static tokens, alone and with JWTs.
 */
static void
test_static(void)
{
	char	   *tokens = path("tokens");
	char	   *secret = path("hs.secret");
	char	   *t = token("static_alice");
	char	   *h;
	McpAuthSettings s = {.tokens_file = tokens, .jwt_leeway_seconds = -1};

	ok(configure(&s) && mcp_auth_enabled(), "static tokens file accepted");
	expect_token("static_alice", MCP_AUTH_OK, "alice");
	expect_token("static_bob", MCP_AUTH_OK, "bob");
	expect_token("static_dots", MCP_AUTH_OK, "dora");
	expect_token("static_8k", MCP_AUTH_OK, "r\xc3\xb4le");
	expect_token("hs_valid", MCP_AUTH_INVALID, NULL);
	/* the same token, one character changed */
	t[0] = t[0] == 'a' ? 'b' : 'a';
	h = mcp_psprintf("Bearer %s", t);
	expect("static token, one character changed", h, MCP_AUTH_INVALID, NULL);
	free(h);
	t[0] = '\0';
	free(t);
	t = token("static_alice");
	h = mcp_psprintf("bearer \t %s \t", t);
	expect("static token, scheme in lower case, blanks around", h,
		   MCP_AUTH_OK, "alice");
	free(h);
	h = mcp_psprintf("Bearer %.*s", (int) strlen(t) - 1, t);
	expect("static token, a prefix of it", h, MCP_AUTH_INVALID, NULL);
	free(h);

	s.jwt_secret_file = secret;
	ok(configure(&s), "static tokens and HS256 together accepted");
	expect_token("static_alice", MCP_AUTH_OK, "alice");
	expect_token("hs_valid", MCP_AUTH_OK, "alice");
	/* two dots: a JWT when JWTs are configured */
	expect_token("static_dots", MCP_AUTH_INVALID, NULL);
	free(t);
	free(tokens);
	free(secret);
}

/*
 * Authorization header values that carry no usable bearer token.
 */
static void
test_headers(void)
{
	char	   *tokens = path("tokens");
	McpAuthSettings s = {.tokens_file = tokens, .jwt_leeway_seconds = -1};
	char	   *big = mcp_malloc(9001 + 8);

	ok(configure(&s), "static tokens file accepted again");
	expect("no header", NULL, MCP_AUTH_MISSING, NULL);
	expect("empty header", "", MCP_AUTH_MISSING, NULL);
	expect("Basic scheme", "Basic dXNlcjpwYXNzd29yZA==", MCP_AUTH_MISSING,
		   NULL);
	expect("BearerX scheme", "BearerAbc", MCP_AUTH_MISSING, NULL);
	expect("\"Bearer\" alone", "Bearer", MCP_AUTH_MALFORMED, NULL);
	expect("\"Bearer \" and blanks", "Bearer   ", MCP_AUTH_MALFORMED, NULL);
	expect("two words", "Bearer abc def", MCP_AUTH_MALFORMED, NULL);
	expect("a quote in the token", "Bearer ab\"c", MCP_AUTH_MALFORMED, NULL);
	expect("'=' inside the token", "Bearer ab=c", MCP_AUTH_MALFORMED, NULL);
	expect("a control character", "Bearer ab\x01" "c", MCP_AUTH_MALFORMED,
		   NULL);
	strcpy(big, "Bearer ");
	memset(big + 7, 'a', 9000);
	big[9007] = '\0';
	expect("a 9000-byte token", big, MCP_AUTH_MALFORMED, NULL);
	memset(big + 7 + 8192, ' ', 70);
	expect("an 8192-byte token, blanks, one more character", big,
		   MCP_AUTH_MALFORMED, NULL);
	big[7 + 8192] = 'a';
	big[7 + 8193] = '\0';
	expect("an 8193-byte token", big, MCP_AUTH_MALFORMED, NULL);
	big[7 + 8192] = '\0';
	expect("an 8192-byte unknown token", big, MCP_AUTH_INVALID, NULL);
	free(big);
	free(tokens);
}

/*
 * Files and settings mcp_auth_configure() must refuse, with a message
 * naming the file and the problem.
 */
static void
test_config_errors(void)
{
	const char *files[] = {
		"nonexistent", "tokens_badhex", "tokens_badrole", "tokens_dup",
		"tokens_fields", "tokens_empty", "world.secret", "short.secret",
		"group.secret", "rsa.key", "rsa1024.pub", "ec384.pub", "ed.pub",
		"garbage.pub", "rsa.pub"
	};
	char	   *p[sizeof(files) / sizeof(files[0])];
	McpAuthSettings s = {.jwt_leeway_seconds = -1};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		p[i] = path(files[i]);

	s.tokens_file = p[0];
	expect_config_error(&s, "missing tokens file", "could not open token file", p[0]);
	s.tokens_file = p[1];
	expect_config_error(&s, "a hash that is not 64 hex digits", "line 2", "64 hexadecimal digits");
	s.tokens_file = p[2];
	expect_config_error(&s, "a 64-byte role name", "line 2", "role name");
	s.tokens_file = p[3];
	expect_config_error(&s, "the same hash twice", "line 2", "earlier line");
	s.tokens_file = p[4];
	expect_config_error(&s, "three fields on a line", "line 1", "more than two fields");
	s.tokens_file = p[5];
	expect_config_error(&s, "a tokens file without tokens", "has no token line", p[5]);
	s.tokens_file = NULL;
	s.jwt_secret_file = p[6];
	expect_config_error(&s, "a world-readable secret file", "has world access", p[6]);
	s.jwt_secret_file = p[7];
	expect_config_error(&s, "a 16-byte secret", "at least 32", p[7]);
	s.jwt_secret_file = p[8];
	ok(configure(&s), "a group-readable secret file is accepted (with a warning)");
	s.jwt_secret_file = NULL;
	s.jwt_key_file = p[9];
	expect_config_error(&s, "a private key as the public key", "private key", p[9]);
	s.jwt_key_file = p[10];
	expect_config_error(&s, "an RSA 1024 key", "at least 2048", p[10]);
	s.jwt_key_file = p[11];
	expect_config_error(&s, "an EC P-384 key", "P-256", p[11]);
	s.jwt_key_file = p[12];
	expect_config_error(&s, "an Ed25519 key", "P-256", p[12]);
	s.jwt_key_file = p[13];
	expect_config_error(&s, "a file without a PEM key", "no PEM public key", p[13]);
	s.jwt_key_file = p[14];
	s.jwt_role_claim = "app_metadata..role";
	expect_config_error(&s, "an empty name in the claim path", "invalid JWT role claim", NULL);
	s.jwt_role_claim = "\"unterminated.role";
	expect_config_error(&s, "an unterminated quote in the claim path", "invalid JWT role claim", NULL);
	s.jwt_role_claim = NULL;
	s.jwt_leeway_seconds = 100000;
	expect_config_error(&s, "a leeway over an hour", "leeway", NULL);
	s.jwt_leeway_seconds = -1;
	s.authorization_server = AS_URL;
	expect_config_error(&s, "an authorization server without a resource URL", "--resource-url", NULL);
	s.resource = "ftp://mcp.example/mcp";
	expect_config_error(&s, "a resource URL that is not http(s)", "resource URL", "https://");
	s.resource = RESOURCE "#frag";
	expect_config_error(&s, "a resource URL with a fragment", "resource URL", "fragment");
	s.resource = RESOURCE "?x=1";
	expect_config_error(&s, "a resource URL with a query", "resource URL", "query");
	s.resource = "https:///mcp";
	expect_config_error(&s, "a resource URL without a host", "resource URL", "no host");
	s.resource = RESOURCE;
	s.authorization_server = "https://as.example/\"x";
	expect_config_error(&s, "an authorization server URL with a quote", "authorization server URL", NULL);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		free(p[i]);
}

/*
 * The WWW-Authenticate challenge and the protected-resource metadata.
 */
static void
test_challenge_metadata(void)
{
	char	   *rsa = path("rsa.pub");
	McpAuthSettings s = {.jwt_key_file = rsa, .jwt_leeway_seconds = -1,
	.authorization_server = AS_URL, .resource = RESOURCE};
	char	   *c;
	char	   *m;
	json_object *doc;
	json_object *v;
	bool		good;
	const char *md = "resource_metadata=\"https://mcp.example:8443/.well-known/oauth-protected-resource/mcp\"";

	ok(configure(&s), "RSA key with an authorization server accepted");
	ok(strcmp(mcp_auth_metadata_path(), "/.well-known/oauth-protected-resource/mcp") == 0,
	   "metadata path: %s", mcp_auth_metadata_path());
	c = mcp_auth_challenge(MCP_AUTH_INVALID, "the JWT's signature is not valid");
	ok(strcmp(c, "Bearer realm=\"neon-ai-tools-mcp\", error=\"invalid_token\", error_description=\"the JWT's signature is not valid\", resource_metadata=\"https://mcp.example:8443/.well-known/oauth-protected-resource/mcp\"") == 0,
	   "challenge, invalid: %s", c);
	free(c);
	c = mcp_auth_challenge(MCP_AUTH_EXPIRED, "the JWT has expired");
	ok(strstr(c, "error=\"invalid_token\", error_description=\"the JWT has expired\"") != NULL &&
	   strstr(c, md) != NULL, "challenge, expired: %s", c);
	free(c);
	c = mcp_auth_challenge(MCP_AUTH_MISSING, "the request has no bearer token");
	ok(strcmp(c, "Bearer realm=\"neon-ai-tools-mcp\", resource_metadata=\"https://mcp.example:8443/.well-known/oauth-protected-resource/mcp\"") == 0,
	   "challenge, missing (no error code, RFC 6750 3.1): %s", c);
	free(c);
	c = mcp_auth_challenge(MCP_AUTH_MALFORMED, "the bearer token is too long");
	ok(strstr(c, "error=\"invalid_request\"") != NULL, "challenge, malformed: %s", c);
	free(c);
	c = mcp_auth_challenge(MCP_AUTH_INVALID, "a \"quoted\" \\ reason\n");
	ok(strstr(c, "error_description=\"a quoted  reason\"") != NULL,
	   "challenge: quotes, backslashes and control characters left out: %s", c);
	free(c);

	m = mcp_auth_resource_metadata();
	doc = m ? json_tokener_parse(m) : NULL;
	ok(doc != NULL && json_object_is_type(doc, json_type_object) &&
	   json_object_object_get_ex(doc, "resource", &v) &&
	   strcmp(json_object_get_string(v), RESOURCE) == 0 &&
	   json_object_object_get_ex(doc, "authorization_servers", &v) &&
	   json_object_array_length(v) == 1 &&
	   strcmp(json_object_get_string(json_object_array_get_idx(v, 0)), AS_URL) == 0 &&
	   json_object_object_get_ex(doc, "bearer_methods_supported", &v) &&
	   json_object_array_length(v) == 1 &&
	   strcmp(json_object_get_string(json_object_array_get_idx(v, 0)), "header") == 0,
	   "metadata: %s", m ? m : "(null)");
	json_object_put(doc);
	free(m);

	s.authorization_server = NULL;
	s.resource = "https://mcp.example";
	ok(configure(&s), "RSA key without an authorization server accepted");
	m = mcp_auth_resource_metadata();
	ok(m == NULL, "no metadata without an authorization server");
	free(m);
	c = mcp_auth_challenge(MCP_AUTH_INVALID, "the JWT has expired");
	ok(strstr(c, "resource_metadata") == NULL,
	   "no resource_metadata without an authorization server: %s", c);
	free(c);
	s.authorization_server = AS_URL;
	good = configure(&s);
	ok(good && strcmp(mcp_auth_metadata_path(), "/.well-known/oauth-protected-resource") == 0,
	   "metadata path of a resource without a path: %s", mcp_auth_metadata_path());
	c = mcp_auth_challenge(MCP_AUTH_MISSING, NULL);
	ok(strstr(c, "resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource\"") != NULL,
	   "resource_metadata of a resource without a path: %s", c);
	free(c);
	free(rsa);
}

/* ------------------------------------------------------------------------
 * many threads at once
 * ------------------------------------------------------------------------ */

typedef struct ThreadCase
{
	char	   *header;
	McpAuthStatus status;
	const char *role;
} ThreadCase;

static ThreadCase thread_cases[6];

/*
 * NROUNDS checks of every case; returns the number of wrong answers.
 */
static void *
thread_main(void *arg)
{
	long		wrong = 0;

	for (int r = 0; r < NROUNDS; r++)
	{
		for (int i = 0; i < 6; i++)
		{
			ThreadCase *c = &thread_cases[(i + (long) arg) % 6];
			char	   *role = NULL;
			const char *reason;
			McpAuthStatus got = mcp_auth_check(c->header, &role, &reason);

			if (got != c->status ||
				(got == MCP_AUTH_OK && strcmp(role, c->role) != 0))
				wrong++;
			free(role);
		}
	}
	return (void *) wrong;
}

/*
 * NTHREADS threads check static tokens and HS256 and RS256 JWTs at once.
 */
static void
test_threads(void)
{
	char	   *tokens = path("tokens");
	char	   *secret = path("hs.secret");
	char	   *rsa = path("rsa.pub");
	McpAuthSettings s = {.tokens_file = tokens, .jwt_secret_file = secret,
	.jwt_key_file = rsa, .jwt_leeway_seconds = -1};
	pthread_t	threads[NTHREADS];
	long		wrong = 0;
	int			started = 0;

	thread_cases[0] = (ThreadCase) {bearer("hs_valid"), MCP_AUTH_OK, "alice"};
	thread_cases[1] = (ThreadCase) {bearer("rs_valid"), MCP_AUTH_OK, "alice"};
	thread_cases[2] = (ThreadCase) {bearer("static_bob"), MCP_AUTH_OK, "bob"};
	thread_cases[3] = (ThreadCase) {bearer("rs_badsig"), MCP_AUTH_INVALID, NULL};
	thread_cases[4] = (ThreadCase) {bearer("hs_expired"), MCP_AUTH_EXPIRED, NULL};
	thread_cases[5] = (ThreadCase) {bearer("static_alice"), MCP_AUTH_OK, "alice"};
	ok(configure(&s), "static tokens, HS256 and RS256 together accepted");
	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&threads[i], NULL, thread_main, (void *) i) == 0)
			started++;
	for (int i = 0; i < started; i++)
	{
		void	   *ret;

		pthread_join(threads[i], &ret);
		wrong += (long) ret;
	}
	ok(started == NTHREADS && wrong == 0,
	   "%d threads x %d checks at once: %ld wrong answers", started,
	   NROUNDS * 6, wrong);
	for (int i = 0; i < 6; i++)
		free(thread_cases[i].header);
	free(tokens);
	free(secret);
	free(rsa);
}

int
main(int argc, char **argv)
{
	if (argc != 3)
	{
		fprintf(stderr, "usage: %s DIR FIRST\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	test_number = atoi(argv[2]);
	mcp_log_set_verbosity(2);

	ok(!mcp_auth_enabled(), "nothing configured: authentication is off");
	test_hs256();
	test_claims();
	test_public_keys();
	test_static();
	test_headers();
	test_config_errors();
	test_challenge_metadata();
	test_threads();

	mcp_auth_forget();
	ok(!mcp_auth_enabled(), "mcp_auth_forget: authentication is off again");
	mcp_mask_forget();
	return 0;
}
