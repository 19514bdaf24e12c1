"""`tabletap tags read|write|enroll|check` end to end: CLI, adapter, real driver, emulated chip."""

from __future__ import annotations

from collections import deque

import yaml

from tabletap.controller.cli import main
from tabletap.controller.table.pieces import magic_keys, pieces_of


def run(capsys, *argv):
    code = main(["tags", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_read_names_each_tag_on_the_reader(capsys):
    code, out, _ = run(capsys, "read", "--sim", "--sim-tag", "magic-keys/key/gold",
                       "--sim-tag", "blank")
    assert code == 0
    assert "magic-keys/key/gold  (NDEF)" in out
    assert "blank: the tag is blank" in out


def test_read_with_an_empty_reader(capsys):
    code, out, _ = run(capsys, "read", "--sim")
    assert code == 1 and "no tag on reader chest" in out


def test_read_foreign_and_unformatted_tags_say_so(capsys):
    code, out, _ = run(capsys, "read", "--sim", "--sim-tag", "foreign", "--sim-tag", "unformatted")
    assert "foreign: the tag holds something else (https://example.com/)" in out
    assert "unknown: tag" in out and "is not enrolled" in out


def test_read_a_corrupt_tag_says_so(capsys):
    code, out, _ = run(capsys, "read", "--sim", "--sim-tag", "corrupt")
    assert code == 0 and "corrupt: the tag's NDEF message is garbled" in out


def test_write_programs_and_verifies(capsys):
    code, out, _ = run(capsys, "write", "magic-keys/key/blue/3", "--sim", "--sim-tag", "blank")
    assert code == 0 and "wrote magic-keys/key/blue/3" in out and "read it back" in out


def test_write_rewrites_our_own_tag_and_says_what_it_was(capsys):
    code, out, _ = run(capsys, "write", "magic-keys/key/blue/3", "--sim", "--sim-tag",
                       "magic-keys/key/gold")
    assert code == 0 and "it carried magic-keys/key/gold" in out


def test_write_refuses_a_locked_tag(capsys):
    code, _, err = run(capsys, "write", "magic-keys/key/blue/3", "--sim", "--sim-tag",
                       "locked:magic-keys/key/gold")
    assert code == 1 and "locked (read-only): refusing to touch it" in err


def test_write_refuses_foreign_data_unless_forced(capsys):
    code, _, err = run(capsys, "write", "magic-keys/key/blue/3", "--sim", "--sim-tag", "foreign")
    assert code == 1 and "--force" in err
    code, out, _ = run(capsys, "write", "magic-keys/key/blue/3", "--sim", "--sim-tag", "foreign",
                       "--force")
    assert code == 0 and "overwritten" in out


def test_write_needs_exactly_one_tag_and_a_piece_id(capsys):
    code, _, err = run(capsys, "write", "magic-keys/key/blue/3", "--sim", "--sim-tag", "blank",
                       "--sim-tag", "blank")
    assert code == 1 and "2 tags on reader chest" in err
    code, _, err = run(capsys, "write", "Not A Piece", "--sim", "--sim-tag", "blank")
    assert code == 2 and "is not a piece id" in err


def test_unknown_reader_is_a_clear_error(capsys):
    code, _, err = run(capsys, "read", "--sim", "--reader", "attic")
    assert code == 1 and "no reader called 'attic'" in err


def test_enroll_walks_through_every_piece_and_writes_the_registry(capsys, tmp_path):
    registry = tmp_path / "uids.yaml"
    code, out, _ = run(capsys, "enroll", "magic-keys", "--sim", "--registry", str(registry))
    assert code == 0
    assert "[1/21] tap magic-keys/key/purple/1" in out and "[21/21] tap magic-keys/key/gold" in out
    assert out.count("written and verified") == 21
    uids = yaml.safe_load(registry.read_text())["uids"]
    assert sorted(uids.values()) == sorted(magic_keys())


def test_enroll_registers_tags_it_cannot_write(capsys, tmp_path):
    registry = tmp_path / "uids.yaml"
    code, out, _ = run(capsys, "enroll", "magic-keys", "--only", "magic-keys/key/purple/",
                       "--sim", "--registry", str(registry), "--timeout", "20",
                       "--sim-tap", "blank", "--sim-tap", "locked:magic-keys/key/gold",
                       "--sim-tap", "unformatted", "--sim-tap", "foreign", "--sim-tap", "locked",
                       "--sim-tap", "blank")
    assert code == 0
    assert "this tag carries magic-keys/key/gold; tap it again" in out
    assert "purple/2 is tag" in out
    assert "(no NDEF memory (not formatted, or not an NTAG): enrolled by UID)" in out
    assert "(holds other data, kept: enrolled by UID)" in out
    assert "(locked: enrolled by UID)" in out
    assert out.count("written and verified") == 2
    assert len(yaml.safe_load(registry.read_text())["uids"]) == 5


def test_enroll_stops_when_no_tag_comes_and_resumes(capsys, tmp_path):
    registry = tmp_path / "uids.yaml"
    code, out, _ = run(capsys, "enroll", "magic-keys", "--only", "magic-keys/key/green/",
                       "--sim", "--registry", str(registry), "--timeout", "10",
                       "--sim-tap", "blank", "--sim-tap", "blank")
    assert code == 1 and "stopped at magic-keys/key/green/3" in out and "--resume" in out
    code, out, _ = run(capsys, "enroll", "magic-keys", "--only", "magic-keys/key/green/",
                       "--sim", "--registry", str(registry), "--resume", "--timeout", "10")
    assert code == 0
    assert "magic-keys/key/green/1: already enrolled" in out
    assert out.count("written and verified") == 3
    assert len(yaml.safe_load(registry.read_text())["uids"]) == 5


def test_enroll_refuses_the_same_tag_for_two_pieces(capsys, tmp_path):
    from tabletap.sim.pn532.hand import tag_from_spec

    first_tap = tag_from_spec("blank", 1000).uid.hex(":")  # the hand's first tapped tag
    registry = tmp_path / "uids.yaml"
    registry.write_text(f"uids:\n  {first_tap}: magic-keys/key/gold\n")
    code, out, _ = run(capsys, "enroll", "magic-keys", "--only", "magic-keys/key/blue/1",
                       "--sim", "--registry", str(registry), "--registry-only", "--timeout", "5",
                       "--sim-tap", "blank", "--sim-tap", "blank")
    assert code == 0
    assert "that tag is already magic-keys/key/gold; tap a new one" in out
    assert "(enrolled by UID)" in out
    uids = yaml.safe_load(registry.read_text())["uids"]
    assert uids[first_tap] == "magic-keys/key/gold" and len(uids) == 2


def test_check_reports_a_complete_set(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "magic-keys", "--sim",
                       "--registry", str(tmp_path / "none.yaml"))
    assert code == 0 and "present: 21 of 21" in out and "missing" not in out


def test_check_reports_missing_duplicated_and_strangers(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "magic-keys", "--only", "magic-keys/key/purple/",
                       "--sim", "--registry", str(tmp_path / "none.yaml"), "--seconds", "30",
                       "--sim-tap", "magic-keys/key/purple/1",
                       "--sim-tap", "copy:magic-keys/key/purple/1",
                       "--sim-tap", "magic-keys/key/purple/2", "--sim-tap", "foreign",
                       "--sim-tap", "oversiege/red/tower/1")
    assert code == 1
    assert "present: 2 of 5" in out
    assert "missing (3): magic-keys/key/purple/3, magic-keys/key/purple/4" in out
    assert "duplicated: magic-keys/key/purple/1 on 2 tags" in out
    assert "oversiege/red/tower/1 is not part of this set" in out
    assert "foreign" in out


def test_check_uses_the_registry_for_tags_enrolled_by_uid(capsys, tmp_path):
    registry = tmp_path / "uids.yaml"
    run(capsys, "enroll", "magic-keys", "--only", "magic-keys/key/yellow/1", "--sim",
        "--registry", str(registry), "--sim-tap", "unformatted")
    code, out, _ = run(capsys, "check", "magic-keys", "--only", "magic-keys/key/yellow/1",
                       "--sim", "--registry", str(registry), "--sim-tap", "unformatted")
    assert code == 0 and "present: 1 of 1" in out


def test_piece_lists_follow_design_ids():
    assert len(pieces_of("magic-keys")) == 21
    over = pieces_of("oversiege", ("red",))
    assert over[:6] == ["oversiege/red/tower/1", "oversiege/red/tower/2", "oversiege/red/tower/3",
                        "oversiege/red/tower/4", "oversiege/red/entrance", "oversiege/red/chamber"]
    king = pieces_of("kingdomino")
    assert "kingdomino/domino/48" in king and "kingdomino/treasure/joker" in king
    assert "kingdomino/king/blue/2" in king and "kingdomino/castle/pink" in king


def test_enroll_takes_mifare_classic_cards_by_uid(capsys, tmp_path):
    """The cards that come with PN532 kits: their memory is not readable without Crypto1, so
    they are enrolled by UID, with or without --registry-only."""
    for extra in ([], ["--registry-only"]):
        registry = tmp_path / f"uids{len(extra)}.yaml"
        code, out, _ = run(capsys, "enroll", "magic-keys", "--only", "magic-keys/key/purple/",
                           "--sim", "--registry", str(registry), "--timeout", "20", *extra,
                           *["--sim-tap", "classic"] * 5)
        assert code == 0, out
        assert out.count("enrolled by UID") == 5 and "could not be read" not in out
        assert len(yaml.safe_load(registry.read_text())["uids"]) == 5


def test_registry_only_enrols_a_tag_whose_memory_does_not_answer(tmp_path):
    """A tag that lists but NAKs every READ (read-protected, or a card the SEL_RES does not
    give away) is announced with its error; --registry-only needs only its UID."""
    from tabletap.controller.settings.config import ReaderConfig
    from tabletap.controller.table.identity import UidRegistry
    from tabletap.controller.table.tagging import Desk, Enrolment
    from tabletap.sim.clock import VirtualClock
    from tabletap.sim.ntag import TagNak
    from tabletap.sim.pn532.backend import build_reader
    from tabletap.sim.pn532.hand import Hand
    from tabletap.sim.world import SimTag, SimWorld

    clock = VirtualClock()
    world = SimWorld(clock=clock)
    context = {"world": world, "clock": clock}
    reader = build_reader("chest", ReaderConfig(), context)
    tag = SimTag(uid=bytes.fromhex("04a1b2c3d4e5f6"), ndef=None)

    def nak(start: int) -> bytes:
        raise TagNak("read-protected")

    tag.memory.read = nak  # type: ignore[method-assign]
    for registry_only, expected in ((False, 1), (True, 0)):
        hand = Hand(world, "chest", clock, deque([tag]))
        context["chips"]["chest"].on_command = hand.tick
        lines: list[str] = []
        registry = UidRegistry(tmp_path / f"u{registry_only}.yaml", {})
        enrolment = Enrolment(Desk(reader, clock, lines.append), reader, registry,
                              registry_only=registry_only, timeout=10)
        assert enrolment.run(["magic-keys/key/gold"]) == expected, lines
        if registry_only:
            assert registry.pieces == {"04:a1:b2:c3:d4:e5:f6": "magic-keys/key/gold"}
        else:
            assert "--registry-only" in "\n".join(lines) and registry.pieces == {}
        world.remove("chest", tag.uid)


def test_without_sim_an_emulated_reader_is_refused(capsys, tmp_path):
    """No --config means the built-in config, whose readers are emulated: on a real box that
    would say "no tag" with a tag on the reader. It must say what to pass instead."""
    code, out, err = run(capsys, "read")
    assert code == 2 and "transport: sim" in err and "--config" in err and "--sim" in err
    config = tmp_path / "tabletap.yaml"
    config.write_text("readers:\n  chest: {transport: sim}\n")
    code, _, err = run(capsys, "enroll", "magic-keys", "--config", str(config))
    assert code == 2 and f"config {config}" in err
