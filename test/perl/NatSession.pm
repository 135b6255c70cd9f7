# A psql session of its own for TAP tests: one backend, statements sent one
# at a time, output and errors of each kept apart.  Unlike a query that
# fails, a backend that ends (a FATAL) ends psql; query() then returns what
# it got.  Also hwm_mb(): a process's peak memory (VmHWM) in MB.
#
#   my $s = NatSession->new($node);            # or ->new($node, $user)
#   my ($out, $err, $secs, $done) = $s->query($sql, $timeout);
#   $s->alive; $s->close;
package NatSession;

use strict;
use warnings;
use Exporter 'import';
use IPC::Run;
use Time::HiRes qw(time);

our @EXPORT_OK = qw(hwm_mb);

sub new
{
	my ($class, $node, $user) = @_;
	my $self = bless { in => '', out => '', err => '', n => 0 }, $class;
	$self->{h} = IPC::Run::start(
		[
			'psql', '-XAtq', '-v', 'ON_ERROR_STOP=0',
			'-d', $node->connstr('postgres'),
			(defined $user ? ('-U', $user) : ()), '-f', '-'
		],
		'<', \$self->{in}, '>', \$self->{out}, '2>', \$self->{err});
	my ($pid) = $self->query('SELECT pg_backend_pid()');
	$self->{pid} = $pid;
	return $self;
}

# run SQL; returns (stdout, stderr, seconds, done: psql answered in time)
sub query
{
	my ($self, $sql, $timeout) = @_;
	$timeout //= 90;
	my $mark = 'query_done_' . ++$self->{n};
	$self->{out} = $self->{err} = '';
	$self->{in} .= "$sql;\n\\echo $mark\n";
	my $timer = IPC::Run::timer($timeout);
	$timer->start;
	my $t0 = time;
	while ($self->{out} !~ /^$mark$/m)
	{
		last if $timer->is_expired || !$self->{h}->pumpable;
		eval { $self->{h}->pump; 1 } or last;
	}
	my $secs = time - $t0;
	my $done = $self->{out} =~ s/^$mark\n//m;
	Test::More::diag("psql gave no answer within $timeout s: $sql")
	  if !$done && $self->{h}->pumpable;
	my $out = $self->{out};
	chomp $out;
	return ($out, $self->{err}, $secs, $done);
}

sub alive
{
	my ($self) = @_;
	return -d "/proc/$self->{pid}" && $self->{h}->pumpable;
}

sub close
{
	my ($self) = @_;
	if ($self->{h}->pumpable)
	{
		$self->{in} .= "\\q\n";
		eval { $self->{h}->finish; 1 } or $self->{h}->kill_kill;
	}
	else
	{
		eval { $self->{h}->finish };
	}
	return;
}

# VmHWM of a process in MB, undef when it has gone
sub hwm_mb
{
	my ($pid) = @_;
	open my $fh, '<', "/proc/$pid/status" or return undef;
	while (<$fh>)
	{
		return $1 / 1024 if /^VmHWM:\s+(\d+) kB/;
	}
	return undef;
}

1;
