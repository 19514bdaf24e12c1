"""Issue 22, defects 2 and 7, as the box sets them up: the units and the sysusers file.

These only run on a real box under systemd, so they are read here; what they arrange is run for
real in tests/web/test_own_user.py (two uids, as root) and tests/web/test_slow_clients.py (the
page under a descriptor limit). `systemd-sysusers --root` makes the users into an empty folder,
so the file is checked by the tool that reads it on the box.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tabletap.controller.control_socket.server import SOCKET_MODE
from tabletap.web.limits import RESERVE, Limits
from tests.release.test_systemd_units import _service
from tests.release.tools import UNITS, tool

DEVICE_GROUPS = {"gpio", "i2c", "spi", "dialout", "audio"}


def _lines(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines() if line and not line.startswith("#")]


def _members(root: Path) -> dict[str, set[str]]:
    groups: dict[str, set[str]] = {}
    for line in (root / "etc/group").read_text().splitlines():
        name, _, _, members = line.split(":")
        groups[name] = set(filter(None, members.split(",")))
    return groups


def test_sysusers_makes_the_page_a_user_of_its_own_in_the_daemons_group(tmp_path: Path):
    sysusers = tool("systemd-sysusers")
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    out = subprocess.run([sysusers, f"--root={root}", str(UNITS / "tabletap.sysusers")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    users = {line.split(":")[0]: line.split(":") for line in
             (root / "etc/passwd").read_text().splitlines()}
    daemon, page = users["tabletap"], users["tabletap-web"]
    assert daemon[2] != page[2] and daemon[3] != page[3]  # two uids, two primary groups
    assert page[6] == "/usr/sbin/nologin"
    groups = _members(root)
    assert "tabletap-web" in groups["tabletap"]  # the control socket's group
    # The page gets nothing else: no device, and the daemon is not in the page's group.
    assert all("tabletap-web" not in groups[g] for g in DEVICE_GROUPS)
    assert all("tabletap" in groups[g] for g in DEVICE_GROUPS)
    assert groups["tabletap-web"] == set()


def test_the_units_run_the_daemon_and_the_page_as_two_users():
    daemon, page = _service("tabletap.service"), _service("tabletap-web.service")
    assert daemon["User"] == ["tabletap"] and daemon["Group"] == ["tabletap"]
    assert page["User"] == ["tabletap-web"] and page["Group"] == ["tabletap-web"]
    assert page["SupplementaryGroups"] == ["tabletap"]
    # The page cannot signal the daemon: another uid and no capability (CAP_KILL) at all;
    # it does not even see the daemon's process.
    assert page["CapabilityBoundingSet"] == [""] and page["NoNewPrivileges"] == ["yes"]
    assert page["ProtectProc"] == ["invisible"]


def test_only_the_control_socket_is_open_to_the_daemons_group():
    daemon = _service("tabletap.service")
    # The folder: the group may reach the socket, not list the folder; nothing the daemon
    # writes is the group's unless the code says so (the socket only).
    assert daemon["StateDirectoryMode"] == ["0710"]
    assert daemon["UMask"] == ["0077"]
    assert SOCKET_MODE == 0o660
    page = _service("tabletap-web.service")
    assert page["ReadOnlyPaths"] == ["-/var/lib/tabletap"]


def test_the_page_has_descriptors_for_every_connection_it_admits():
    """Its caps, not the kernel, refuse a flood (tabletap/web/gate.py)."""
    limit = int(_service("tabletap-web.service")["LimitNOFILE"][0])
    limits = Limits()
    assert limits.fitted(limit) == limits  # the defaults stand under the unit's limit
    assert limit >= limits.in_all + RESERVE
    assert limits.per_address < limits.in_all
