/*-------------------------------------------------------------------------
 *
 * http_checks.c
 *	  Where a request may come from: its Origin and Host headers; and the
 *	  address a listener binds, loopback or not.
 *
 * Origin (a browser's): every Origin header of the request must name a
 * loopback origin or one given with --allow-origin ("*": any); a request
 * without one (any client that is not a browser) passes.
 *
 * Host: a page of another site whose name an attacker points at 127.0.0.1
 * (DNS rebinding) reaches a loopback server with its own name in Host, and
 * a browser sends no Origin for some requests.  So Host must name the
 * server: a loopback name (localhost, 127.x.x.x, [::1], with any port), a
 * name given with --allowed-host, or the host of --resource-url.  On a
 * non-loopback address with neither option, the name clients use is not
 * known, and Host is not checked (the start says so in the log).  Every
 * Host header is checked; a request without one (HTTP/1.0) passes.
 *
 * IDENTIFICATION
 *	  src/mcp/transport/http_checks.c
 *
 *-------------------------------------------------------------------------
 */
#include <netdb.h>
#include <string.h>
#include <strings.h>

#include "transport/http_int.h"

static const McpHttpSettings *settings;
static bool check_host = true;

typedef struct HeaderCheck
{
	const char *name;
	bool		(*allowed) (const char *value);
	bool		ok;
} HeaderCheck;

static bool origin_allowed(const char *origin);
static bool host_allowed(const char *host);
static bool same_host(const char *a, size_t a_len, const char *b, size_t b_len);
static size_t host_length(const char *host);

/*
 * Keep the settings; loopback: whether the server listens on a loopback
 * address.
 */
void
http_checks_configure(const McpHttpSettings *s, bool loopback)
{
	settings = s;
	check_host = loopback || s->n_allowed_hosts > 0 || s->resource_url != NULL;
	if (!check_host)
		mcp_log(MCP_LOG_WARNING, "the Host header is not checked: give the server's public "
				"name with --allowed-host (or --resource-url) to refuse other names");
}

/* MHD_get_connection_values' iterator: checks each header called name */
static enum MHD_Result
check_each(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	HeaderCheck *check = cls;

	if (strcasecmp(key, check->name) == 0 && !check->allowed(value))
		check->ok = false;
	return MHD_YES;
}

/*
 * Do every Origin header name an allowed origin?
 */
bool
http_origins_allowed(struct MHD_Connection *connection)
{
	HeaderCheck check = {"Origin", origin_allowed, true};

	MHD_get_connection_values(connection, MHD_HEADER_KIND, check_each, &check);
	return check.ok;
}

/*
 * Do every Host header name this server?
 */
bool
http_host_allowed(struct MHD_Connection *connection)
{
	HeaderCheck check = {"Host", host_allowed, true};

	if (!check_host)
		return true;
	MHD_get_connection_values(connection, MHD_HEADER_KIND, check_each, &check);
	return check.ok;
}

/*
 * Origins a browser page may call us from: the loopback ones (a local
 * page), the administrator's list, everything if the list holds "*".
 */
static bool
origin_allowed(const char *origin)
{
	const char *host;
	size_t		len;
	int			i;

	for (i = 0; i < settings->n_allowed_origins; i++)
		if (strcmp(settings->allowed_origins[i], "*") == 0 ||
			strcasecmp(settings->allowed_origins[i], origin) == 0)
			return true;
	if (strncasecmp(origin, "http://", 7) == 0)
		host = origin + 7;
	else if (strncasecmp(origin, "https://", 8) == 0)
		host = origin + 8;
	else
		return false;
	len = host_length(host);
	if (host[len] != '\0' && host[len] != ':')
		return false;
	return http_is_loopback_host(host, len);
}

/*
 * A Host value (host[:port]) this server answers to.
 */
static bool
host_allowed(const char *host)
{
	size_t		len = host_length(host);
	const char *url_host;
	int			i;

	if (host[len] != '\0' && host[len] != ':')
		return false;
	if (host[len] == ':' && strspn(host + len + 1, "0123456789") != strlen(host + len + 1))
		return false;
	if (http_is_loopback_host(host, len))
		return true;
	for (i = 0; i < settings->n_allowed_hosts; i++)
		if (same_host(host, len, settings->allowed_hosts[i],
					  host_length(settings->allowed_hosts[i])))
			return true;
	if (settings->resource_url != NULL &&
		(url_host = strstr(settings->resource_url, "://")) != NULL)
	{
		url_host += 3;
		if (same_host(host, len, url_host, host_length(url_host)))
			return true;
	}
	return false;
}

static bool
same_host(const char *a, size_t a_len, const char *b, size_t b_len)
{
	/* a fully qualified name may end with a dot */
	if (a_len > 0 && a[a_len - 1] == '.')
		a_len--;
	if (b_len > 0 && b[b_len - 1] == '.')
		b_len--;
	return a_len == b_len && a_len > 0 && strncasecmp(a, b, a_len) == 0;
}

/* the length of the host part of "host[:port][/...]" ("[v6]" whole) */
static size_t
host_length(const char *host)
{
	if (host[0] == '[')
	{
		const char *end = strchr(host, ']');

		return end != NULL ? (size_t) (end + 1 - host) : strlen(host);
	}
	return strcspn(host, ":/");
}

/*
 * Is host/len a loopback name: localhost, 127.x.x.x, [::1]?
 */
bool
http_is_loopback_host(const char *host, size_t len)
{
	return (len == 9 && strncasecmp(host, "localhost", 9) == 0) ||
		(len == 5 && strncmp(host, "[::1]", 5) == 0) ||
		(len >= 9 && strncmp(host, "127.", 4) == 0 &&
		 strspn(host, "0123456789.") == len);
}

/*
 * Resolve the address to bind (a numeric address or a host name) and say
 * whether it is a loopback one.
 */
bool
http_bind_address(const char *address, int port, struct sockaddr_storage *addr,
				  bool *loopback)
{
	struct addrinfo hints;
	struct addrinfo *found = NULL;
	char		service[16];
	int			rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	snprintf(service, sizeof(service), "%d", port);
	rc = getaddrinfo(address, service, &hints, &found);
	if (rc != 0 || found == NULL)
	{
		mcp_log(MCP_LOG_ERROR, "could not resolve the address \"%s\": %s",
				address, gai_strerror(rc));
		return false;
	}
	memset(addr, 0, sizeof(*addr));
	memcpy(addr, found->ai_addr, found->ai_addrlen);
	if (found->ai_family == AF_INET)
		*loopback = (ntohl(((struct sockaddr_in *) found->ai_addr)->sin_addr.s_addr) >> 24) == 127;
	else
		*loopback = found->ai_family == AF_INET6 &&
			memcmp(&((struct sockaddr_in6 *) found->ai_addr)->sin6_addr,
				   &in6addr_loopback, sizeof(struct in6_addr)) == 0;
	freeaddrinfo(found);
	return true;
}
