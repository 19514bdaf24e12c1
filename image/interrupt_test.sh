#!/bin/bash
# Interrupts `image/build.sh` twice and checks that it cleans up after itself (slow: minutes, root;
# not part of `make test`):
#   1. Ctrl-C (SIGINT to the whole process group) once mmdebstrap has mounted /proc, /sys, ...
#      in the root it builds: nothing may stay mounted under the cache;
#   2. SIGKILL of the whole group at the same point (a time limit that does not wait, a power
#      cut of the build machine): the mounts stay, and the next build must unmount them, remove
#      the half-built layer and build it again (checked up to its own mounts, then Ctrl-C'd).
# Uses a cache of its own (build/interrupt-test), removed at the end.
#
#   image/interrupt_test.sh WHEEL
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WHEEL=$(realpath "${1:?usage: interrupt_test.sh WHEEL}")
CACHE=$(realpath -m build/interrupt-test)
export TABLETAP_IMAGE_CACHE=$CACHE
mounts() { awk -v d="$CACHE/" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo; }
fail() { echo "interrupt test: FAILED: $*" >&2; exit 1; }
start_build() {  # start_build LOG: the build in a process group of its own (its pid: $pid)
    setsid "$HERE/build.sh" "$WHEEL" "$CACHE/out" > "$1" 2>&1 < /dev/null &
    pid=$!
}
finish() {  # finish PID: waits for the build to end, at most 5 minutes; its exit status
    local i
    for ((i = 0; i < 300; i++)); do
        kill -0 "$1" 2>/dev/null || break
        sleep 1
    done
    kill -0 "$1" 2>/dev/null && fail "the build is still running 5 minutes after the signal"
    wait "$1" && rc=0 || rc=$?
}
wait_for_mounts() {  # wait_for_mounts PID LOG: until mmdebstrap has mounted in its root
    local i
    for ((i = 0; i < 600; i++)); do
        grep -q 'I: installing essential packages' "$2" 2>/dev/null \
            && [ "$(mounts | grep -c '\.tmp/')" -ge 3 ] && { sleep 5; return 0; }
        kill -0 "$1" 2>/dev/null || fail "the build ended before mounting anything (see its log)"
        sleep 1
    done
    fail "no mounts under $CACHE after 10 minutes"
}
mkdir -p "$CACHE"
[ -z "$(mounts)" ] && echo "==> 0. a clean cache" || echo "==> 0. left mounted by an earlier run: $(mounts | wc -l) (the build must cope)"

echo "==> 1. Ctrl-C during mmdebstrap"
start_build "$CACHE/build-1.log"
wait_for_mounts "$pid" "$CACHE/build-1.log"
echo "   mounted under the cache: $(mounts | sed "s|$CACHE/||" | tr '\n' ' ')"
t0=$SECONDS
kill -INT -- "-$pid"
finish "$pid"
left=$(mounts)
[ -z "$left" ] || fail "still mounted after Ctrl-C (exit $rc): $left"
echo "   the build exited $rc, $((SECONDS - t0)) s after Ctrl-C; nothing is mounted under the cache"

echo "==> 2. SIGKILL during mmdebstrap, then a new build"
start_build "$CACHE/build-2.log"
wait_for_mounts "$pid" "$CACHE/build-2.log"
kill -KILL -- "-$pid"
finish "$pid"
sleep 2
echo "   left mounted by the killed build: $(mounts | sed "s|$CACHE/||" | tr '\n' ' ')"
[ -n "$(mounts)" ] || echo "   (mmdebstrap had cleaned up by itself)"
start_build "$CACHE/build-3.log"
for ((i = 0; i < 900; i++)); do
    grep -q 'I: installing essential packages' "$CACHE/build-3.log" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || { tail -5 "$CACHE/build-3.log" >&2; fail "the rerun stopped"; }
    sleep 1
done
grep -q 'I: installing essential packages' "$CACHE/build-3.log" \
    || fail "the rerun did not get back to mmdebstrap's install"
echo "   the rerun removed the half-built layer and is installing packages again"
kill -INT -- "-$pid"
finish "$pid"
[ -z "$(mounts)" ] || fail "still mounted after the rerun's Ctrl-C: $(mounts)"
echo "   Ctrl-C'd; nothing is mounted under the cache"
rm -rf --one-file-system "$CACHE"
echo "==> the build cleans up after Ctrl-C and recovers from a SIGKILL"
