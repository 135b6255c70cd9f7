# shellcheck shell=bash
# Which PostgreSQL the scripts build, install and test against.  Sourced by
# install-deps.sh and cluster.sh; defines functions only.
#
#   PG_CONFIG=/path/to/pg_config   that installation, whatever its version
#   PGVERSION=NN                   Debian's postgresql-NN (from the
#                                  distribution or the PGDG apt repository)
#   neither                        the distribution's own PostgreSQL, the
#                                  version its "postgresql" package stands for
#
# Supported: PostgreSQL 15 to 19.  Anything else ends the script with one
# line saying what is supported.

NAT_PG_MIN=15
NAT_PG_MAX=19

nat_unsupported() {
    echo "neon_ai_tools: $*. Supported: PostgreSQL $NAT_PG_MIN to $NAT_PG_MAX" \
        "(Debian 12 bookworm: 15, Debian 13 trixie: 17, sid: 18;" \
        "elsewhere install postgresql-server-dev-NN from the PGDG apt repository and set PGVERSION=NN)." >&2
    exit 2
}

# "Debian 13 (trixie)", "Ubuntu 22.04", ... for messages.
nat_system_name() {
    local ID="" VERSION_ID="" VERSION_CODENAME="" PRETTY_NAME=""
    # shellcheck disable=SC1091
    [ -r /etc/os-release ] && . /etc/os-release
    echo "${PRETTY_NAME:-this system}"
}

# The major version the distribution's "postgresql" package depends on,
# from apt's lists (empty when they hold no such package).
nat_distribution_pg_version() {
    apt-cache show --no-all-versions postgresql 2>/dev/null |
        sed -n 's/^Depends:.*postgresql-\([0-9][0-9]*\).*/\1/p' | head -n 1
}

# nat_pg_version [update]: set NAT_PG_VERSION, or exit with one line.  With
# "update", apt's lists are refreshed (as root) when they do not know the
# distribution's PostgreSQL yet, as on a freshly installed machine.
nat_pg_version() {
    local v=""
    if [ -n "${PG_CONFIG:-}" ]; then
        [ -x "$PG_CONFIG" ] || command -v "$PG_CONFIG" >/dev/null 2>&1 ||
            nat_unsupported "PG_CONFIG=$PG_CONFIG is not an executable pg_config"
        v=$("$PG_CONFIG" --version | sed -n 's/^PostgreSQL \([0-9][0-9]*\).*/\1/p')
    elif [ -n "${PGVERSION:-}" ]; then
        v=$PGVERSION
    else
        command -v apt-cache >/dev/null 2>&1 ||
            nat_unsupported "$(nat_system_name) has no apt: the scripts need Debian or Ubuntu (or set PG_CONFIG and build by hand with make)"
        v=$(nat_distribution_pg_version)
        if [ -z "$v" ] && [ "${1:-}" = update ]; then
            "${SUDO[@]}" apt-get update -q >/dev/null 2>&1 || true
            v=$(nat_distribution_pg_version)
        fi
        [ -n "$v" ] || nat_unsupported "cannot tell which PostgreSQL $(nat_system_name) provides (no \"postgresql\" package in apt's lists); set PGVERSION=NN or PG_CONFIG"
        if [ "$v" -lt "$NAT_PG_MIN" ] || [ "$v" -gt "$NAT_PG_MAX" ]; then
            nat_unsupported "$(nat_system_name) provides PostgreSQL $v"
        fi
    fi
    case $v in
        '' | *[!0-9]*) nat_unsupported "cannot read a PostgreSQL major version from '${v}'" ;;
    esac
    if [ "$v" -lt "$NAT_PG_MIN" ] || [ "$v" -gt "$NAT_PG_MAX" ]; then
        nat_unsupported "PostgreSQL $v was asked for"
    fi
    NAT_PG_VERSION=$v
}
