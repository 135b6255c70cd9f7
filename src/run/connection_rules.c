/*-------------------------------------------------------------------------
 *
 * connection_rules.c
 *		  neon_ai_tools.require_ssl: which connections may call tools.
 *
 *	 off	  any connection
 *	 remote   (default) a TCP connection from a non-loopback address must
 *			  use SSL; Unix sockets and loopback TCP need not
 *	 on		  every connection must use SSL (Unix sockets are refused too)
 *
 * Backends without a client connection (background workers, jobs inside
 * the database) are not connections at all and are always allowed.  A
 * refusal is an answer (permission_denied) that says how to reconnect.
 *
 * IDENTIFICATION
 *		  src/core/connection_rules.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/socket.h>
#include <netinet/in.h>

#include "libpq/libpq-be.h"
#include "miscadmin.h"
#include "run/run.h"

/*
 * Is the client on the same host: a Unix socket, or loopback TCP
 * (127.0.0.0/8, ::1, or ::ffff:127.x.x.x)?
 */
static bool
client_is_local(Port *port, bool *unix_socket)
{
	const struct sockaddr *sa = (const struct sockaddr *) &port->raddr.addr;

	*unix_socket = false;
	switch (sa->sa_family)
	{
		case AF_UNIX:
			*unix_socket = true;
			return true;
		case AF_INET:
			{
				const struct sockaddr_in *in = (const struct sockaddr_in *) sa;

				return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
			}
		case AF_INET6:
			{
				const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) sa;
				const uint8 *a = in6->sin6_addr.s6_addr;

				if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr))
					return true;
				return IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && a[12] == 127;
			}
	}
	return false;
}

/*
 * Refuse the call if this connection breaks neon_ai_tools.require_ssl.
 */
void
nat_check_connection(void)
{
	Port	   *port = MyProcPort;
	bool		unix_socket;
	bool		local;
	ToolError  *err;

	if (nat_require_ssl == NAT_REQUIRE_SSL_OFF || port == NULL)
		return;
	if (port->ssl_in_use)
		return;
	local = client_is_local(port, &unix_socket);
	if (nat_require_ssl == NAT_REQUIRE_SSL_REMOTE && local)
		return;

	err = nat_error(NAT_ERR_PERMISSION_DENIED,
					unix_socket ?
					"tool calls must use an SSL connection, and a Unix-socket connection cannot" :
					"tool calls from this connection must use SSL");
	err->sqlerrcode = ERRCODE_INSUFFICIENT_PRIVILEGE;
	err->suggestion = pstrdup(unix_socket ?
							  "Connect over TCP with SSL (host name or address, sslmode=require); the server requires SSL for every tool call (neon_ai_tools.require_ssl = on)." :
							  "Reconnect with SSL (sslmode=require, or sslmode=verify-full with the server's CA).");
	err->suggested_actions = list_make1(pstrdup("Add sslmode=require to the connection string and reconnect."));
	nat_throw(err);
}
