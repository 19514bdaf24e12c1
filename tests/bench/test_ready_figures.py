"""`bench live`'s start figures (bench/live/__init__.py): exec -> READY and the daemon's CPU up
to it, under the stable bench.json keys docs/BENCHMARKS.md lists, from real starts."""

from __future__ import annotations

from bench.live import _ready_figures


def test_the_start_is_reported_with_its_cpu_under_stable_keys() -> None:
    (wall_label, wall, wall_unit, wall_key), (_, cpu, cpu_unit, cpu_key), \
        (_, first, first_unit, first_key), (image_label, image, image_unit, image_key) = \
        _ready_figures("wall", None, 2)
    assert (wall_key, cpu_key, first_key, image_key) == \
        ("ready_s", "ready_cpu_s", "ready_first_s", "ready_image_first_s")
    assert wall_unit == cpu_unit == first_unit == image_unit == "s"
    assert 0 < first < 30 and 0 < image < 30
    assert "image's first start" in image_label
    assert "median of 2 starts" in wall_label
    # The daemon's own CPU up to READY: some, and no more than its two threads could spend on
    # this machine's two cores in that time (plus a /proc tick). The bench's own process,
    # read by mistake, would have spent more: it imported the rig and ran two starts.
    assert 0 < wall < 30
    assert 0 < cpu <= 2 * wall + 0.01
