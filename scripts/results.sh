# Counting a suite's results from its log, for scripts/test.sh and
# scripts/test-citus.sh (sourced; defines functions only).
# Each counter reads a suite's log and sets C_PASS, C_FAIL, C_SKIP.

# pg_regress prints one line per test.  15: "test name   ... ok   12 ms",
# "     name   ... FAILED   12 ms" (parallel group member), "... failed
# (ignored)".  16 and later print TAP: "ok 1   - name   12 ms",
# "not ok 2   - name   12 ms", with "# (ignored)" after an ignored failure.
# Ignored tests count as skipped.
count_regress() {
    local log=$1
    C_PASS=$(grep -cE '^(test | +)[^ ]+ +\.\.\. ok( |$)|^ok [0-9]+ +[-+] ' "$log" || true)
    C_FAIL=$(grep -E '^(test | +)[^ ]+ +\.\.\. FAILED( |$)|^not ok [0-9]+ +[-+] ' "$log" | grep -cv '# (ignored)' || true)
    C_SKIP=$(grep -cE '^(test | +)[^ ]+ +\.\.\. failed \(ignored\)|^not ok [0-9]+ +[-+] .*# \(ignored\)' "$log" || true)
}

# TAP (prove -v, node --test --test-reporter=tap, ...): top-level
# "ok N" / "not ok N" lines; "# SKIP" and "# TODO" are not failures.  A
# script that died without a failing assertion shows up only in prove's
# summary ("... (Wstat: 65280 (exited 255) Tests: 1 Failed: 0)"): one more.
# prove --timer's line for a whole file ("ok     1296 ms ...") is not one.
count_tap() {
    local log=$1 died
    C_PASS=$(grep -E '^ok [0-9]+' "$log" | grep -vE '^ok +[0-9]+ ms ' | grep -cviE '# *(skip|todo)' || true)
    C_FAIL=$(grep -E '^not ok [0-9]+' "$log" | grep -cviE '# *todo' || true)
    died=$(grep -cE '^[^ ].*\(Wstat: .* Failed: 0\)$' "$log" || true)
    C_FAIL=$((C_FAIL + died))
    C_SKIP=$(grep -iE '^(not )?ok [0-9]+.*# *(skip|todo)|^1\.\.0 # *skip' "$log" | grep -c . || true)
}

# the failing results of a log (pg_regress or TAP), one line each, at most 20
failed_results() {
    grep -E '^not ok [0-9]+|^(test | +)[^ ]+ +\.\.\. FAILED( |$)|\(Wstat: .* Failed: 0\)$' "$1" |
        grep -viE '# *(todo|\(ignored\))' | head -n 20
}
