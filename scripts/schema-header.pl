#!/usr/bin/perl
# Write the envelope schema (test/envelope/response.schema.json, its only
# copy) as a C string for the MCP catalog's outputSchema: compact, keys
# sorted (a reproducible build), without the annotations a client never
# needs ("description", "title", "$comment") and without "$id" and "$schema"
# (every tool carries a copy, and an MCP client compiles each: one $id
# would collide; 2020-12 is MCP's default dialect).
#
# Usage: perl scripts/schema-header.pl SCHEMA.json > src/registry/envelope_schema.h
use strict;
use warnings;
use JSON::PP;

my $file = shift or die "usage: $0 SCHEMA.json\n";
open(my $fh, '<', $file) or die "$file: $!\n";
my $schema = JSON::PP->new->decode(do { local $/; <$fh> });
close($fh);

# annotations are string-valued; a property named "description" is not
sub strip
{
	my ($node) = @_;
	if (ref $node eq 'HASH')
	{
		for my $k (keys %$node)
		{
			if ((grep { $k eq $_ } qw(description title $comment $id $schema))
				&& !ref $node->{$k})
			{
				delete $node->{$k};
			}
			else
			{
				strip($node->{$k});
			}
		}
	}
	elsif (ref $node eq 'ARRAY')
	{
		strip($_) for @$node;
	}
}
strip($schema);
my $text = JSON::PP->new->canonical->ascii->encode($schema);
$text =~ s/(["\\])/\\$1/g;

print "/* generated from $file by scripts/schema-header.pl: do not edit */\n";
print "#define NAT_ENVELOPE_SCHEMA \\\n";
# short lines: C compilers allow long strings, editors like short lines
my @chunks = ($text =~ /(.{1,100}(?<!\\))/gs);
die "split lost characters\n" if join('', @chunks) ne $text;
print join(" \\\n", map { "\t\"$_\"" } @chunks), "\n";
