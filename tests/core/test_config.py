"""The config schema: defaults for a simulated table, and errors naming file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletap.controller.loading.source import SourceError
from tabletap.controller.settings.config import load_config, parse_config


def test_defaults_describe_a_simulated_magic_keys_table():
    config = load_config(None)
    assert config.backend == "sim"
    assert set(config.readers) == {"chest", "pond"}
    assert config.chest.open_seconds == 5.0


def test_a_typo_names_file_line_and_key(tmp_path: Path):
    path = tmp_path / "table.yaml"
    path.write_text("backend: sim\nchest:\n  open_secnds: 4\n")
    with pytest.raises(SourceError) as err:
        load_config(path)
    assert str(err.value) == f"{path}:3:3: chest.open_secnds: unknown key (a typo?)"


def test_a_bad_value_names_its_line():
    with pytest.raises(SourceError) as err:
        parse_config("poll:\n  period: 0.1\n  miss_threshold: 0\n", "t.yaml")
    assert err.value.line == 3 and err.value.key == "poll.miss_threshold"


def test_a_bad_reader_transport_is_named():
    with pytest.raises(SourceError) as err:
        parse_config("readers:\n  chest:\n    transport: usb\n", "t.yaml")
    assert err.value.key == "readers.chest.transport" and err.value.line == 3


def test_broken_yaml_is_located():
    with pytest.raises(SourceError) as err:
        parse_config("readers: [chest\n", "t.yaml")
    assert "not valid YAML" in str(err.value) and err.value.line is not None


def test_yaml_tags_are_not_executed():
    with pytest.raises(SourceError):
        parse_config("game: !!python/object/apply:os.system ['true']\n", "t.yaml")


def test_missing_file_is_a_clear_error(tmp_path: Path):
    with pytest.raises(SourceError, match="cannot read"):
        load_config(tmp_path / "nope.yaml")


ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_example_config_is_valid():
    config = load_config(ROOT / "examples" / "table.yaml")
    assert config.backend == "gpio" and set(config.readers) == {"chest", "pond"}


def test_the_service_runs_as_an_unprivileged_user():
    unit = (ROOT / "tabletap" / "hw" / "systemd" / "tabletap.service").read_text()
    assert "\nUser=tabletap\n" in unit and "NoNewPrivileges=yes" in unit
    assert "User=root" not in unit


def test_a_bad_game_option_names_its_line():
    with pytest.raises(SourceError) as err:
        parse_config("game: magic-keys\nplayers: [ana, ben]\noptions: {dice: digitl}\n", "t.yaml")
    assert err.value.line == 3 and err.value.key == "options" and "digitl" in str(err.value)


def test_a_bad_setup_and_an_unknown_game_are_named():
    with pytest.raises(SourceError) as err:
        parse_config("game: magic-keys\nplayers: [ana, ben]\nsetup: {fake_keys: [blue/1]}\n",
                     "t.yaml")
    assert err.value.key == "setup" and err.value.line == 3
    with pytest.raises(SourceError) as err:
        parse_config("game: chess\n", "t.yaml")
    assert err.value.key == "game" and err.value.line == 1


def test_a_damaged_uid_registry_stops_the_start_with_its_file_and_line(tmp_path: Path):
    from tabletap.controller.table.runtime import GameSpec, StartError, open_table
    from tabletap.sim.context import make_context

    (tmp_path / "uids.yaml").write_text("uids:\n  04:aa: [unclosed\n")
    config = parse_config(f"state_dir: {tmp_path}\n", "t.yaml")
    ctx = make_context()
    with pytest.raises(StartError, match=r"uids.yaml:\d+:\d+: not valid YAML"):
        open_table(config, ctx, ctx["clock"], GameSpec("magic-keys", ["a", "b"]), new=True)
    (tmp_path / "uids.yaml").write_text("uids:\n  04:aa:bb:cc: Not A Piece\n")
    with pytest.raises(StartError, match=r"uids.yaml:2:3: uids.04:aa:bb:cc: 'Not A Piece' is not"):
        open_table(config, ctx, ctx["clock"], GameSpec("magic-keys", ["a", "b"]), new=True)


def test_a_slow_latch_is_capped_because_the_gpio_loop_waits_for_it():
    with pytest.raises(SourceError) as err:
        parse_config("chest:\n  servo:\n    travel_seconds: 12\n", "t.yaml")
    assert err.value.key == "chest.servo.travel_seconds" and err.value.line == 3


def test_two_readers_on_one_port_are_a_config_error_naming_the_second():
    """One serial port carries one reader (and the Pico's port none): a copied reader block whose
    port was not changed would open the same UART twice, and the second open is refused at run
    time as "in use by another program", though the program is the same. Said at load instead,
    at the key to change."""
    text = ("readers:\n"
            "  chest: {transport: uart, port: /dev/serial0}\n"
            "  pond:\n"
            "    transport: uart\n"
            "    port: /dev/serial0\n")
    with pytest.raises(SourceError) as err:
        parse_config(text, "t.yaml")
    assert err.value.key == "readers.pond.port" and err.value.line == 5
    assert "readers.chest" in str(err.value)


def test_a_reader_on_the_picos_port_and_shared_spi_and_i2c_wiring_are_named():
    on_pico = ("backend: serial\nserial:\n  port: /dev/ttyACM0\n"
               "readers:\n  chest: {transport: uart, port: /dev/ttyACM0}\n")
    with pytest.raises(SourceError) as err:
        parse_config(on_pico, "t.yaml")
    assert err.value.key == "readers.chest.port" and "serial.port" in str(err.value)
    spi = "readers:\n  chest: {transport: spi, cs: D5}\n  pond: {transport: spi, cs: D5}\n"
    with pytest.raises(SourceError) as err:
        parse_config(spi, "t.yaml")
    assert err.value.key == "readers.pond.cs" and err.value.line == 3
    i2c = "readers:\n  chest: {transport: i2c}\n  pond: {transport: i2c, address: 0x24}\n"
    with pytest.raises(SourceError) as err:
        parse_config(i2c, "t.yaml")
    assert err.value.key == "readers.pond.address"


def test_readers_on_different_wiring_load():
    config = parse_config(
        "backend: serial\nserial:\n  port: /dev/ttyACM0\nreaders:\n"
        "  chest: {transport: uart, port: /dev/serial0}\n"
        "  pond: {transport: spi, cs: D5}\n  well: {transport: spi, cs: D6}\n"
        "  pool: {transport: i2c}\n  bath: {transport: sim}\n  tub: {transport: sim}\n",
        "t.yaml")
    assert len(config.readers) == 6
