"""The page's HTTP API against a real daemon and a real `tabletap web`: who may change what."""

from __future__ import annotations

import signal
import subprocess
import time

import httpx
import pytest

from tests.web.table import TABLETAP, Table


def client(table: Table) -> tuple[httpx.Client, str]:
    """A browser-like client with a session cookie and its CSRF token."""
    c = httpx.Client(base_url=table.url, timeout=10)
    session = c.get("/api/session").json()
    assert session["paired"] is False and session["csrf"]
    return c, session["csrf"]


def pair(table: Table, c: httpx.Client, csrf: str) -> str:
    started = c.post("/api/pair", json={"label": "test phone"}, headers={"x-csrf-token": csrf})
    assert started.status_code == 200, started.text
    table.say("tap admin/1 pond")  # after the last one is lifted (Table.say)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        status = c.get(f"/api/pair/{started.json()['request']}").json()
        if status.get("status") == "paired":
            return status["pairing"]
        time.sleep(0.1)
    raise AssertionError(f"never paired: {status}")


def test_only_the_pages_own_routes_are_served(table):
    index = httpx.get(table.url + "/")
    assert index.status_code == 200 and "<main>" in index.text
    assert "default-src 'none'" in index.headers["content-security-policy"]
    assert httpx.get(table.url + "/static/app.js").status_code == 200
    for path in ("/etc/passwd", "/static/../pyproject.toml", "/static/%2e%2e/app.py",
                 "/api/nothing", "/docs", "/state/pairings.json"):
        assert httpx.get(table.url + path).status_code == 404, path
    assert httpx.delete(table.url + "/api/do").status_code == 405


def test_the_games_and_their_views_come_from_the_installed_games(table):
    """Games are plugins: the page's game list is every installed game's spec, and each view
    is served from its game's package; nothing else is served under /views."""
    from tabletap.controller.games import registry

    games = httpx.get(table.url + "/api/games").json()["games"]
    assert [g["name"] for g in games] == registry.game_names()
    for g in games:
        spec = registry.game(g["name"])
        assert g["title"] == spec.title and g["players"]["most"] == spec.players.most
        assert [o["name"] for o in g["options"]] == [o.name for o in spec.options]
        view = httpx.get(f"{table.url}/views/{g['name']}.js")
        assert view.status_code == 200 and "TT.views" in view.text
        assert view.headers["content-type"].startswith("text/javascript")
    for path in ("/views/nothing.js", "/views/kingdomino.py", "/views/..%2fapp.js",
                 "/views/kingdomino.html"):
        assert httpx.get(table.url + path).status_code == 404, path


def test_anyone_may_watch_the_state_and_the_stream(table):
    state = httpx.get(table.url + "/api/state").json()
    assert state["ok"] and state["snapshot"]["game"] == "kingdomino"
    with httpx.stream("GET", table.url + "/api/stream", timeout=10) as events:
        assert events.headers["content-type"].startswith("text/event-stream")
        for line in events.iter_lines():
            if line.startswith("data:"):
                assert '"kingdomino"' in line
                break


def test_every_change_from_an_unpaired_browser_is_refused(table):
    before = table.state()
    bare = httpx.Client(base_url=table.url, timeout=10)
    claim = {"action": "claim", "domino": 31}
    assert bare.post("/api/do", json=claim).status_code == 403  # no session, no token
    c, csrf = client(table)
    assert c.post("/api/do", json=claim).status_code == 403  # no CSRF token
    assert c.post("/api/do", json=claim, headers={"x-csrf-token": "0" * 64}).status_code == 403
    forged = c.post("/api/do", json=claim, headers={"x-csrf-token": csrf,
                                                    "origin": "http://evil.example"})
    assert forged.status_code == 403
    for path, body in (("/api/do", claim), ("/api/new", {"game": "kingdomino"}),
                       ("/api/undo", {}), ("/api/abandon", {}),
                       ("/api/pairings/abc/revoke", {})):
        refused = c.post(path, json=body, headers={"x-csrf-token": csrf})
        assert refused.status_code == 401, (path, refused.text)
        assert "Pair this phone" in refused.json()["error"]
    assert c.get("/api/pairings").status_code == 401
    assert table.state() == before


def test_a_paired_browser_acts_and_a_revoked_one_is_refused(table):
    c, csrf = client(table)
    pairing_id = pair(table, c, csrf)
    listed = subprocess.run([*TABLETAP, "web", "pairings", "--config", str(table.config)],
                            capture_output=True, text=True, timeout=20, cwd=table.folder)
    assert listed.returncode == 0 and pairing_id in listed.stdout
    assert "test phone" in listed.stdout and "admin/1" in listed.stdout
    # The table wants its new line tapped first: the engine's refusal comes back as is.
    early = c.post("/api/do", json={"action": "claim", "domino": 31},
                   headers={"x-csrf-token": csrf})
    assert early.status_code == 200
    assert early.json()["accepted"] is False and early.json()["rejected"] == "confirm-first"
    bad = c.post("/api/do", content=b"[1, 2", headers={"x-csrf-token": csrf})
    assert bad.status_code == 400
    revoked = subprocess.run([*TABLETAP, "web", "pairings", "--revoke", pairing_id,
                              "--config", str(table.config)],
                             capture_output=True, text=True, timeout=20, cwd=table.folder)
    assert revoked.returncode == 0 and "revoked" in revoked.stdout
    after = c.post("/api/do", json={"action": "claim", "domino": 31},
                   headers={"x-csrf-token": csrf})
    assert after.status_code == 401


def test_an_oversized_action_is_refused_unread(table):
    c, csrf = client(table)
    pair(table, c, csrf)
    big = b'{"action": "claim", "note": "' + b"x" * 40000 + b'"}'
    refused = c.post("/api/do", content=big, headers={"x-csrf-token": csrf})
    assert refused.status_code == 400 and "larger than" in refused.json()["detail"]
    for garbage in (b"[" * 12000, b"\xff\xfe{", b'{"action": 1e999999}', b"null"):
        answer = c.post("/api/do", content=garbage, headers={"x-csrf-token": csrf})
        assert answer.status_code == 400, (garbage[:20], answer.text)


def test_the_page_and_the_table_outlive_each_other(tmp_path):
    t = Table(tmp_path)
    try:
        t.daemon.send_signal(signal.SIGTERM)  # the table restarts (a power cut, an update)
        t.daemon.wait(timeout=10)
        down = httpx.get(t.url + "/api/state", timeout=10)
        assert down.status_code == 503 and "not answering" in down.json()["error"]
        t.daemon = t.start_daemon()
        deadline = time.monotonic() + 20
        while httpx.get(t.url + "/api/state", timeout=10).status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        t.web.kill()  # the page crashes: the table plays on
        t.web.wait(timeout=10)
        t.say("tap kingdomino/domino/31")
        t.wait_log("Domino 31 is on the table.")
        assert t.state()["awaiting"]["dominoes"] == [5, 13, 29]
    finally:
        t.stop()


def test_pairing_requests_are_rate_limited(tmp_path):
    t = Table(tmp_path)
    try:
        c, csrf = client(t)
        codes = [c.post("/api/pair", json={}, headers={"x-csrf-token": csrf}).status_code
                 for _ in range(7)]
        assert codes[:5] == [200] * 5 and codes[-1] == 429
    finally:
        t.stop()


def test_a_private_table_shows_nothing_to_a_stranger(tmp_path, page_of):
    t = Table(tmp_path, public=False)
    try:
        assert httpx.get(t.url + "/api/state").status_code == 401
        assert httpx.get(t.url + "/api/stream").status_code == 401
        page = page_of(t, wait=False)
        page.wait_for_selector("#status:has-text('only to paired phones')")
        assert page.query_selector("#kd-now") is None
        page.click("#pair")
        page.wait_for_selector("#pair-wait")  # the window is open: a tap before it pairs nobody
        t.say("tap admin/1 chest")
        page.wait_for_selector("#kd-now")  # paired: the game appears
    finally:
        t.stop()


@pytest.mark.parametrize("value", ["yes please", 70000])
def test_a_bad_web_config_is_named_by_file_line_and_key(tmp_path, value):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"state_dir: {tmp_path}\nweb:\n  enabled: true\n  port: {value}\n")
    out = subprocess.run([*TABLETAP, "web", "--config", str(cfg)], capture_output=True,
                         text=True, timeout=20)
    assert out.returncode == 2 and "t.yaml:4" in out.stderr and "port" in out.stderr


def test_the_page_is_off_unless_enabled(tmp_path):
    """A box whose page is off: a sentence and exit 0, so the page's unit ends quietly instead
    of standing "failed" on every box that never turns the page on."""
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"state_dir: {tmp_path}\n")
    out = subprocess.run([*TABLETAP, "web", "--config", str(cfg)], capture_output=True,
                         text=True, timeout=20)
    assert out.returncode == 0 and "enabled: true" in out.stderr
    assert "nothing to serve" in out.stderr
