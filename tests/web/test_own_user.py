"""Issue 22, defect 7: the page runs as a user of its own, not as the daemon's.

Before: both units ran as `tabletap` and the control socket was 0600, so the page could read the
journal (whose seed gives every secret away) and signal the daemon. Now the daemon and the page
are two uids; the page's user is in the daemon's group, the socket is 0660 and the state folder
0710 (as `StateDirectoryMode=` makes it on the box), and everything else the daemon keeps is
owner-only.

Here the daemon and the page run as two throwaway uids, so the test needs root (the sandbox and
CI are root); the units and the sysusers file that do the same on the box are checked statically
in tests/release/test_users.py.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.launch import BoxTable, User, python_for_others
from tests.web.test_api import client, pair

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0, reason="runs the daemon and the page as two other uids: needs root")


def _unused(start: int) -> int:
    uid = start
    while True:
        try:
            pwd.getpwuid(uid)
        except KeyError:
            return uid
        uid += 1


DAEMON_UID = _unused(61000)
WEB_UID = _unused(DAEMON_UID + 1)
DAEMON = User(DAEMON_UID, DAEMON_UID)
WEB = User(WEB_UID, WEB_UID, groups=(DAEMON_UID,))  # in the daemon's group, as sysusers says


@pytest.fixture()
def table() -> Iterator[BoxTable]:
    # Outside pytest's tmp folder, which is root's alone: both users must reach their files.
    folder = Path(tempfile.mkdtemp(prefix="tabletap-users-", dir="/tmp"))
    folder.chmod(0o755)
    python = python_for_others(folder / "shim")
    if python is None:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"no Python {sys.version_info.major}.{sys.version_info.minor} that other "
                    "uids may run (the venv's is in a folder only root may enter)")
    t = BoxTable(folder, daemon_as=DAEMON, web_as=WEB, python=python[0], env=python[1])
    yield t
    t.stop()
    shutil.rmtree(folder, ignore_errors=True)


PROBE = """
import json, os, socket, sys
paths, folder, pid, sock = json.loads(sys.argv[1])
could = []
for path in paths:
    try:
        open(path, "rb").close()
        could.append("read " + path)
    except PermissionError:
        pass
for what, attempt in (("list the state folder", lambda: os.listdir(folder)),
                      ("signal the daemon", lambda: os.kill(pid, 0)),
                      ("connect", lambda: socket.socket(socket.AF_UNIX).connect(sock))):
    try:
        attempt()
        could.append(what)
    except PermissionError:
        pass
print(json.dumps(could))
"""


def _page_could(table: BoxTable, paths: list[Path]) -> list[str]:
    """What the page's user (its uid, its groups) manages of: opening each of `paths`, listing
    the state folder, signalling the daemon, connecting to the control socket."""
    state = table.folder / "state"
    args = json.dumps([[str(p) for p in paths], str(state), table.daemon.pid,
                       str(state / "control.sock")])
    out = subprocess.run([table.python, "-c", PROBE, args], capture_output=True, text=True,
                         timeout=30, cwd=table.folder, **WEB.popen())
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_page_works_as_its_own_user_and_cannot_read_or_signal_the_daemon(table: BoxTable):
    state = table.folder / "state"
    sock = state / "control.sock"
    assert table.daemon.pid and table.web.pid
    assert sock.stat().st_uid == DAEMON_UID and sock.stat().st_gid == DAEMON_UID
    assert stat.S_IMODE(sock.stat().st_mode) == 0o660

    # The page works: the state, pairing, and a change made by a paired phone.
    assert httpx.get(table.url + "/api/state", timeout=10).json()["snapshot"]["game"] \
        == "kingdomino"
    c, csrf = client(table)
    pair(table, c, csrf)
    claim = c.post("/api/do", json={"action": "claim", "domino": 31},
                   headers={"x-csrf-token": csrf})
    assert claim.status_code == 200 and claim.json()["rejected"] == "confirm-first"

    # What the daemon keeps is its own: the page's uid opens none of it and lists nothing.
    secrets = sorted(p for p in state.rglob("*") if p != sock)
    assert state / "journal.jsonl" in secrets and state / "pairings.json" in secrets, secrets
    for path in (state / "journal.jsonl", state / "pairings.json", state / "lock"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert _page_could(table, secrets) == ["connect"]

    # A paired change that rewrites the journal (the game is archived) keeps it all closed.
    abandoned = c.post("/api/abandon", json={}, headers={"x-csrf-token": csrf})
    assert abandoned.status_code == 200 and abandoned.json()["ok"], abandoned.text
    archived = sorted((state / "games").iterdir())
    assert archived, "the abandoned game was not archived"
    assert _page_could(table, archived) == ["connect"]

    # And the page process itself is that user, not the daemon's.
    status = Path(f"/proc/{table.web.pid}/status").read_text()
    uids = next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1:]
    assert set(map(int, uids)) == {WEB_UID}
