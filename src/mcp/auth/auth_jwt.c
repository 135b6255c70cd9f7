/*-------------------------------------------------------------------------
 *
 * auth_jwt.c
 *	  JWT bearer tokens: the compact JWS form and its signature.
 *
 * A token is three base64url parts, HEADER.PAYLOAD.SIGNATURE (RFC 7515
 * section 7.1).  Each part is decoded strictly: the URL-safe alphabet
 * only, no padding, no stray bits.  The header must be a JSON object whose
 * "alg" is one this server has a key for, and the key decides the one
 * algorithm it serves, so a token cannot choose how it is checked:
 *
 *	- HS256 only with the shared secret (--jwt-secret-file);
 *	- RS256 only with an RSA public key of 2048 bits or more;
 *	- ES256 only with an EC P-256 public key (--jwt-public-key; a PEM
 *	  public key or a certificate).
 *
 * "none" and every other algorithm are refused, and an HS256 token is
 * never checked against the public key's bytes (the classic algorithm
 * confusion).  A header with "crit" is refused: this server understands
 * no extension.  Header parameters that point at keys ("jku", "jwk",
 * "x5u", "x5c", "kid") are ignored: the key is the configured one.
 *
 * The signature is checked before anything of the payload is read; then
 * auth_jwt_claims.c checks the claims and finds the role.  Signatures use
 * OpenSSL 3's EVP interfaces only (HMAC(), EVP_DigestVerify*), which are
 * not deprecated in 3.0 or later.
 *
 * IDENTIFICATION
 *	  src/mcp/auth/auth_jwt.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "auth/auth_int.h"
#include "protocol/protocol.h"

#define MAX_KEY_FILE_BYTES (64 * 1024)
#define MIN_SECRET_BYTES 32		/* RFC 7518 section 3.2: >= the hash size */
#define MIN_RSA_BITS 2048
#define ES256_SIG_LEN 64
#define HS256_SIG_LEN 32
#define HEADER_MAX_DEPTH 4

typedef enum JwtKeyKind
{
	KEY_NONE,
	KEY_RSA,
	KEY_EC_P256
} JwtKeyKind;

static unsigned char *secret = NULL;
static size_t secret_len = 0;
static EVP_PKEY *public_key = NULL;
static JwtKeyKind key_kind = KEY_NONE;

static bool load_secret(const char *path, char **errmsg);
static bool load_public_key(const char *path, char **errmsg);
static EVP_PKEY *read_pem_key(const char *data, size_t len);
static unsigned char *b64url_decode(const char *in, size_t len,
									size_t *out_len);
static McpAuthStatus check_header(const char *header, size_t len,
								  const char **alg, const char **reason);
static bool verify_hs256(const char *input, size_t input_len,
						 const unsigned char *sig, size_t sig_len);
static bool verify_public(const char *input, size_t input_len,
						  const unsigned char *sig, size_t sig_len);
static size_t es256_to_der(const unsigned char *raw, unsigned char *der);

/*
 * Load the secret and the public key, and the claim settings.  Nothing
 * configured is fine (JWTs are then not accepted).
 */
bool
mcp_auth_jwt_configure(const McpAuthSettings *settings, char **errmsg)
{
	if (settings->jwt_secret_file == NULL && settings->jwt_key_file == NULL)
		return true;
	if ((settings->jwt_secret_file != NULL &&
		 !load_secret(settings->jwt_secret_file, errmsg)) ||
		(settings->jwt_key_file != NULL &&
		 !load_public_key(settings->jwt_key_file, errmsg)) ||
		!mcp_auth_claims_configure(settings, errmsg))
	{
		mcp_auth_jwt_forget();
		return false;
	}
	mcp_log(MCP_LOG_INFO, "JWTs accepted: %s%s%s, %s%s%s",
			secret != NULL ? "HS256" : "",
			secret != NULL && key_kind != KEY_NONE ? ", " : "",
			key_kind == KEY_RSA ? "RS256" :
			key_kind == KEY_EC_P256 ? "ES256" : "",
			mcp_auth_claims_audience() ? "audience \"" : "any audience",
			mcp_auth_claims_audience() ? mcp_auth_claims_audience() : "",
			mcp_auth_claims_audience() ? "\"" : "");
	return true;
}

/*
 * Read the key files again (SIGHUP); the claims' settings stay.  On failure
 * the keys read before stay in force; false with the message.
 */
bool
mcp_auth_jwt_reload_keys(const McpAuthSettings *settings, char **errmsg)
{
	unsigned char *old_secret = secret;
	size_t		old_secret_len = secret_len;
	EVP_PKEY   *old_key = public_key;
	JwtKeyKind	old_kind = key_kind;

	if (settings->jwt_secret_file == NULL && settings->jwt_key_file == NULL)
		return true;
	secret = NULL;
	secret_len = 0;
	public_key = NULL;
	key_kind = KEY_NONE;
	if ((settings->jwt_secret_file != NULL &&
		 !load_secret(settings->jwt_secret_file, errmsg)) ||
		(settings->jwt_key_file != NULL &&
		 !load_public_key(settings->jwt_key_file, errmsg)))
	{
		if (secret != NULL)
			OPENSSL_cleanse(secret, secret_len);
		free(secret);
		EVP_PKEY_free(public_key);
		secret = old_secret;
		secret_len = old_secret_len;
		public_key = old_key;
		key_kind = old_kind;
		return false;
	}
	if (old_secret != NULL)
		OPENSSL_cleanse(old_secret, old_secret_len);
	free(old_secret);
	EVP_PKEY_free(old_key);
	return true;
}

/*
 * The HS256 secret: the file's bytes without the line break(s) at its end.
 */
static bool
load_secret(const char *path, char **errmsg)
{
	char	   *data;
	size_t		len;

	if (!mcp_auth_read_file(path, "JWT secret file", MCP_AUTH_FILE_SECRET,
							MAX_KEY_FILE_BYTES, &data, &len, errmsg))
		return false;
	while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == '\r'))
		data[--len] = '\0';
	if (len < MIN_SECRET_BYTES)
	{
		*errmsg = mcp_psprintf("JWT secret file \"%s\" holds %zu bytes; an HS256 secret needs at least %d",
							   path, len, MIN_SECRET_BYTES);
		OPENSSL_cleanse(data, len);
		free(data);
		return false;
	}
	/* a log line that quoted it by accident would show ******** */
	mcp_mask_add_secret(data);
	secret = (unsigned char *) data;
	secret_len = len;
	return true;
}

/*
 * The public key: a PEM "PUBLIC KEY" (SubjectPublicKeyInfo) or certificate,
 * RSA of 2048 bits or more, or EC on P-256.
 */
static bool
load_public_key(const char *path, char **errmsg)
{
	char	   *data;
	size_t		len;
	EVP_PKEY   *key;
	char		group[64];
	size_t		group_len = 0;

	if (!mcp_auth_read_file(path, "JWT public key file", MCP_AUTH_FILE_PUBLIC,
							MAX_KEY_FILE_BYTES, &data, &len, errmsg))
		return false;
	if (strstr(data, "PRIVATE KEY-----") != NULL)
	{
		*errmsg = mcp_psprintf("JWT public key file \"%s\" holds a private key; give the public key alone (openssl pkey -in KEY -pubout)",
							   path);
		OPENSSL_cleanse(data, len);
		free(data);
		return false;
	}
	key = read_pem_key(data, len);
	free(data);
	if (key == NULL)
	{
		*errmsg = mcp_psprintf("JWT public key file \"%s\" holds no PEM public key (\"-----BEGIN PUBLIC KEY-----\") or certificate",
							   path);
		return false;
	}
	if (EVP_PKEY_is_a(key, "RSA") && EVP_PKEY_get_bits(key) >= MIN_RSA_BITS)
		key_kind = KEY_RSA;
	else if (EVP_PKEY_is_a(key, "EC") &&
			 EVP_PKEY_get_group_name(key, group, sizeof(group), &group_len) == 1 &&
			 (strcmp(group, "prime256v1") == 0 || strcmp(group, "P-256") == 0))
		key_kind = KEY_EC_P256;
	else
	{
		*errmsg = mcp_psprintf("JWT public key file \"%s\": the key must be RSA of at least %d bits (RS256) or EC on P-256 (ES256)",
							   path, MIN_RSA_BITS);
		EVP_PKEY_free(key);
		return false;
	}
	public_key = key;
	return true;
}

/*
 * The key of a PEM "PUBLIC KEY", or of a "CERTIFICATE" (as identity
 * providers often publish their signing keys; only its key is used, not
 * its names or dates), or NULL.
 */
static EVP_PKEY *
read_pem_key(const char *data, size_t len)
{
	BIO		   *bio = BIO_new_mem_buf(data, (int) len);
	EVP_PKEY   *key = NULL;

	if (bio != NULL && strstr(data, "-----BEGIN CERTIFICATE-----") != NULL)
	{
		X509	   *cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);

		if (cert != NULL)
			key = X509_get_pubkey(cert);
		X509_free(cert);
	}
	else if (bio != NULL)
		key = PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
	BIO_free(bio);
	ERR_clear_error();
	return key;
}

/*
 * Is a secret or a public key configured?
 */
bool
mcp_auth_jwt_enabled(void)
{
	return secret != NULL || public_key != NULL;
}

/*
 * Check a token of the form A.B.C: its header, its signature, then its
 * claims.  On MCP_AUTH_OK *role is the malloc'd role name.
 */
McpAuthStatus
mcp_auth_jwt_check(const char *token, size_t len, char **role,
				   const char **reason)
{
	const char *dot1 = memchr(token, '.', len);
	const char *dot2 = dot1 ? memchr(dot1 + 1, '.', len - (size_t) (dot1 + 1 - token)) : NULL;
	const char *alg;
	unsigned char *part = NULL;
	unsigned char *sig = NULL;
	size_t		part_len;
	size_t		sig_len;
	McpAuthStatus status = MCP_AUTH_INVALID;
	bool		good;

	*reason = "the JWT is not base64url-encoded HEADER.PAYLOAD.SIGNATURE";
	if (dot1 == NULL || dot2 == NULL || dot1 == token || dot2 == dot1 + 1 ||
		dot2 + 1 == token + len ||
		memchr(dot2 + 1, '.', len - (size_t) (dot2 + 1 - token)) != NULL)
		return status;
	part = b64url_decode(token, (size_t) (dot1 - token), &part_len);
	if (part == NULL)
		return status;
	status = check_header((const char *) part, part_len, &alg, reason);
	free(part);
	if (status != MCP_AUTH_OK)
		return status;
	sig = b64url_decode(dot2 + 1, len - (size_t) (dot2 + 1 - token), &sig_len);
	if (sig == NULL)
		return MCP_AUTH_INVALID;
	if (strcmp(alg, "HS256") == 0)
		good = verify_hs256(token, (size_t) (dot2 - token), sig, sig_len);
	else
		good = verify_public(token, (size_t) (dot2 - token), sig, sig_len);
	free(sig);
	if (!good)
	{
		*reason = "the JWT's signature is not valid";
		return MCP_AUTH_INVALID;
	}
	part = b64url_decode(dot1 + 1, (size_t) (dot2 - dot1 - 1), &part_len);
	if (part == NULL)
		return MCP_AUTH_INVALID;
	status = mcp_auth_claims_check((const char *) part, part_len, role, reason);
	free(part);
	return status;
}

/*
 * The header: a JSON object whose "alg" is the algorithm of a configured
 * key (*alg: a static copy of its name), without "crit".
 */
static McpAuthStatus
check_header(const char *header, size_t len, const char **alg,
			 const char **reason)
{
	json_object *obj = NULL;
	json_object *value = NULL;
	const char *name = NULL;
	size_t		offset;
	const char *why;

	if (mcp_json_check(header, len, HEADER_MAX_DEPTH, &offset, &why))
		obj = json_tokener_parse(header);
	if (obj == NULL || !json_object_is_type(obj, json_type_object))
	{
		json_object_put(obj);
		*reason = "the JWT header is not a JSON object";
		return MCP_AUTH_INVALID;
	}
	if (json_object_object_get_ex(obj, "alg", &value) &&
		json_object_is_type(value, json_type_string))
		name = json_object_get_string(value);
	*alg = NULL;
	if (name != NULL && strcmp(name, "HS256") == 0 && secret != NULL)
		*alg = "HS256";
	else if (name != NULL && strcmp(name, "RS256") == 0 && key_kind == KEY_RSA)
		*alg = "RS256";
	else if (name != NULL && strcmp(name, "ES256") == 0 &&
			 key_kind == KEY_EC_P256)
		*alg = "ES256";
	if (*alg != NULL &&
		(size_t) json_object_get_string_len(value) != strlen(*alg))
		*alg = NULL;
	if (*alg != NULL && json_object_object_get_ex(obj, "crit", NULL))
	{
		json_object_put(obj);
		*reason = "the JWT header has critical parameters this server does not understand";
		return MCP_AUTH_INVALID;
	}
	json_object_put(obj);
	if (*alg == NULL)
	{
		*reason = "the JWT's algorithm is not the one of a configured key";
		return MCP_AUTH_INVALID;
	}
	return MCP_AUTH_OK;
}

/*
 * HMAC-SHA256 of the signing input with the secret, compared in constant
 * time.
 */
static bool
verify_hs256(const char *input, size_t input_len, const unsigned char *sig,
			 size_t sig_len)
{
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int mac_len = 0;
	bool		good;

	if (sig_len != HS256_SIG_LEN ||
		HMAC(EVP_sha256(), secret, (int) secret_len,
			 (const unsigned char *) input, input_len, mac, &mac_len) == NULL ||
		mac_len != HS256_SIG_LEN)
	{
		ERR_clear_error();
		return false;
	}
	good = CRYPTO_memcmp(mac, sig, HS256_SIG_LEN) == 0;
	OPENSSL_cleanse(mac, sizeof(mac));
	return good;
}

/*
 * RS256 (RSASSA-PKCS1-v1_5 with SHA-256) or ES256 (ECDSA P-256 with
 * SHA-256, the signature as the 64 bytes R || S of RFC 7518 section 3.4,
 * which OpenSSL wants as DER) with the public key.
 */
static bool
verify_public(const char *input, size_t input_len, const unsigned char *sig,
			  size_t sig_len)
{
	EVP_MD_CTX *ctx;
	unsigned char der[2 * (ES256_SIG_LEN / 2 + 3) + 2];
	bool		good;

	if (key_kind == KEY_EC_P256)
	{
		if (sig_len != ES256_SIG_LEN)
			return false;
		sig_len = es256_to_der(sig, der);
		sig = der;
	}
	else if (sig_len != (size_t) EVP_PKEY_get_size(public_key))
		return false;
	ctx = EVP_MD_CTX_new();
	good = ctx != NULL &&
		EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, public_key) == 1 &&
		EVP_DigestVerify(ctx, sig, sig_len,
						 (const unsigned char *) input, input_len) == 1;
	EVP_MD_CTX_free(ctx);
	/* the failure's details stay out of this thread's queue (and libpq's) */
	ERR_clear_error();
	return good;
}

/*
 * R || S (32 bytes each, big-endian) as the DER SEQUENCE of two INTEGERs
 * (RFC 3279 Ecdsa-Sig-Value).  Returns the DER's length (at most 72).
 */
static size_t
es256_to_der(const unsigned char *raw, unsigned char *der)
{
	size_t		n = 2;

	for (int k = 0; k < 2; k++)
	{
		const unsigned char *v = raw + k * (ES256_SIG_LEN / 2);
		size_t		vlen = ES256_SIG_LEN / 2;
		bool		pad;

		/* minimal encoding: no leading zero bytes, but a non-negative sign */
		while (vlen > 1 && v[0] == 0)
			v++, vlen--;
		pad = (v[0] & 0x80) != 0;
		der[n++] = 0x02;		/* INTEGER */
		der[n++] = (unsigned char) (vlen + pad);
		if (pad)
			der[n++] = 0x00;
		memcpy(der + n, v, vlen);
		n += vlen;
	}
	der[0] = 0x30;				/* SEQUENCE; at most 70 bytes: short form */
	der[1] = (unsigned char) (n - 2);
	return n;
}

/*
 * Strict base64url without padding (RFC 7515 section 2): a malloc'd
 * buffer with a NUL after its out_len bytes, or NULL when the text has a
 * character outside the alphabet, a length no encoding has (4k + 1), or
 * bits set past the last byte.
 */
static unsigned char *
b64url_decode(const char *in, size_t len, size_t *out_len)
{
	unsigned char *out;
	size_t		n = 0;
	unsigned int acc = 0;
	int			bits = 0;

	if (len == 0 || len % 4 == 1 || len > MCP_AUTH_MAX_TOKEN)
		return NULL;
	out = mcp_malloc(len * 3 / 4 + 1);
	for (size_t i = 0; i < len; i++)
	{
		char		c = in[i];
		int			v;

		if (c >= 'A' && c <= 'Z')
			v = c - 'A';
		else if (c >= 'a' && c <= 'z')
			v = c - 'a' + 26;
		else if (c >= '0' && c <= '9')
			v = c - '0' + 52;
		else if (c == '-')
			v = 62;
		else if (c == '_')
			v = 63;
		else
		{
			free(out);
			return NULL;
		}
		acc = (acc << 6) | (unsigned int) v;
		bits += 6;
		if (bits >= 8)
		{
			bits -= 8;
			out[n++] = (unsigned char) (acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	if (acc != 0)				/* stray bits: not the canonical encoding */
	{
		free(out);
		return NULL;
	}
	out[n] = '\0';
	*out_len = n;
	return out;
}

/*
 * Forget the secret, the key and the claim settings.
 */
void
mcp_auth_jwt_forget(void)
{
	if (secret != NULL)
		OPENSSL_cleanse(secret, secret_len);
	free(secret);
	secret = NULL;
	secret_len = 0;
	EVP_PKEY_free(public_key);
	public_key = NULL;
	key_kind = KEY_NONE;
	mcp_auth_claims_forget();
}
