"""A box of tags enrolled from the phone: the daemon's enrolment mode over the simulated PN532
(the real adapter writes the emulated NTAG's memory), with the `tabletap tags enroll` checks."""

from __future__ import annotations

from tabletap.controller.control_socket import page as web_requests
from tabletap.controller.table.identity import decode_piece
from tabletap.sim.world import SimTag
from tests.core.helpers import magic_keys_table


def put(daemon, world, tag: SimTag, reader: str = "chest") -> None:
    world.place(reader, tag)
    daemon.run_for(0.3)
    world.remove(reader, tag.uid)
    daemon.run_for(0.5)


def test_blank_tags_become_the_box_one_by_one_and_the_game_never_sees_them(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    world = ctx["world"]
    side = web_requests.attach(daemon)
    actions = daemon.session.actions
    started = web_requests.handle(daemon, {"enrol": {"game": "admin"}})
    assert started["enrolment"] == {"game": "admin", "done": 0, "total": 2, "next": "admin/1",
                                    "last": "", "active": True}
    first, second = SimTag.blank("one"), SimTag.blank("two")
    put(daemon, world, first)
    assert decode_piece(first.message()) == "admin/1"  # written on the tag, and read back
    progress = side.snapshot()["enrolment"]
    assert (progress["done"], progress["next"]) == (1, "admin/2")
    # A tag that already is another piece is refused, and the box waits for a new one.
    put(daemon, world, SimTag.for_piece("magic-keys/key/blue/3"), "pond")
    progress = side.snapshot()["enrolment"]
    assert progress["done"] == 1 and "carries magic-keys/key/blue/3" in progress["last"]
    put(daemon, world, second, "pond")
    done = side.snapshot()["enrolment"]
    assert (done["done"], done["active"]) == (2, False)
    assert daemon.identifier.registry.lookup(second.uid) == "admin/2"
    assert any("Every admin tag is enrolled" in line["text"] for line in side.snapshot()["log"])
    assert daemon.session.actions == actions
    # Enrolment over: the new card is a parent card now (refused: no phone waits to pair).
    put(daemon, world, first)
    assert daemon.session.last.rejection.code == "no-pairing"


def test_stopping_keeps_what_was_done_and_starting_again_goes_on(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    web_requests.handle(daemon, {"enrol": {"game": "admin"}})
    put(daemon, ctx["world"], SimTag.blank("one"))
    stopped = web_requests.handle(daemon, {"enrol": {"stop": True}})["enrolment"]
    assert (stopped["done"], stopped["active"]) == (1, False)
    again = web_requests.handle(daemon, {"enrol": {"game": "admin"}})["enrolment"]
    assert (again["done"], again["next"]) == (1, "admin/2")


def test_an_enrolment_that_cannot_start_says_why(tmp_path):
    daemon, _ = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    bad = web_requests.handle(daemon, {"enrol": {"game": "chess"}})
    assert bad["ok"] is False and "no piece list for 'chess'" in bad["error"]
    assert web_requests.handle(daemon, {"enrol": "all"})["ok"] is False
