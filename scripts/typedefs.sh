#!/bin/sh
# Print the typedef names the project's C sources declare, one a line,
# sorted: the content of typedefs.list, which pgindent reads besides
# PostgreSQL's own list ("make pgindent").  Run it after adding a typedef:
#     scripts/typedefs.sh > typedefs.list
set -eu
cd "$(dirname "$0")/.."
find src -name '*.[ch]' ! -name envelope_schema.h | sort |
    xargs perl -0777 -ne '
        s{/\*.*?\*/}{}gs;                       # comments
        s{//[^\n]*}{}g;
        1 while s/\{[^{}]*\}/ /gs;              # bodies, innermost first
        while (/\btypedef\b([^;]*);/g) {
            my $d = $1;
            if ($d =~ /\(\s*\*\s*(\w+)\s*\)/) { print "$1\n" }   # function pointer
            elsif ($d =~ /(\w+)\s*(?:\[[^\]]*\]\s*)*$/) { print "$1\n" }
        }
        # json-c typedefs the MCP program uses: not in the PostgreSQL list
        END { print "json_object\njson_tokener\n" }' |
    LC_ALL=C sort -u
