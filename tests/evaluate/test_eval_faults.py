"""``paintkit eval`` with hostile files and faults (issue 10, items 1-7 and 10): no single
file stops or freezes a run, one run per results folder, unique rows, stable text."""

import io
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from paintkit.cli.main import main
from paintkit.eval import LayoutError, evaluate, read_rows
from paintkit.eval.synthetic import write_synthetic_tree
from paintkit.io.folder_lock import FolderBusyError, FolderLock
from paintkit.io.png_encode import encode_png
from paintkit.io.progress import Progress
from paintkit.layout.results import EVAL_LOCK_NAME as LOCK_NAME
from paintkit.layout.results import PROBLEM_STATS_NAME as RESULTS_NAME
from paintkit.metrics import score
from tests.support.generate_helpers import kill_parent_and_check_workers

MODELS = ("exact", "noisy")


def _tree(root: Path, problems: int = 8, size: int = 16):
    return write_synthetic_tree(root, problems=problems, tasks=2, width=size, height=size,
                                models=MODELS, missing_every=0, corrupt_every=0,
                                resized_every=0)


def dds_unimplemented() -> bytes:
    """A DDS file whose pixel format Pillow's plugin refuses with NotImplementedError."""
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buffer, format="DDS")
    data = bytearray(buffer.getvalue())
    struct.pack_into("<II4s", data, 76, 32, 0x4, b"ZZZZ")  # DDPF_FOURCC, unknown code
    return bytes(data)


def bomb_tiff() -> bytes:
    """A 15000x15000 1-bit TIFF (7 kB on disk, 225M pixels)."""
    buffer = io.BytesIO()
    Image.new("1", (15000, 15000)).save(buffer, format="TIFF", compression="group4")
    return buffer.getvalue()


def plant_hostile_outputs(outputs: Path) -> dict[str, str]:
    """Replace outputs of model 'noisy' in task_0 by hostile files; {file: reason part}."""
    folder = outputs / "noisy" / "PaintBench" / "task_0"
    (folder / "0000_output.png").write_bytes(dds_unimplemented())
    (folder / "0001_output.png").write_bytes(bomb_tiff())
    (folder / "0002_output.png").unlink()
    os.mkfifo(folder / "0002_output.png")
    (folder / "0003_output.png").unlink()
    os.symlink("0003_output.png", folder / "0003_output.png")
    return {"0000": "Unimplemented pixel format", "0001": "decompression bomb",
            "0002": "FIFO", "0003": "symlink loop"}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    bench, outputs = _tree(root)
    return bench, outputs, plant_hostile_outputs(outputs)


@pytest.mark.parametrize("jobs", [1, 2])
def test_no_single_file_stops_or_freezes_a_run(hostile, tmp_path, jobs):
    bench, outputs, reasons = hostile
    command = [sys.executable, "-m", "paintkit.cli.main", "eval", "--benchmarks", str(bench),
               "--outputs", str(outputs), "--out", str(tmp_path), "--jobs", str(jobs)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    rows = read_rows(tmp_path / RESULTS_NAME)
    assert len(rows) == 2 * 8
    by_key = {(r["model"], r["task"], r["idx"]): r for r in rows}
    for stem, reason in reasons.items():
        row = by_key[("noisy", "task_0", int(stem))]
        assert not row["has_output"] and reason in row["error"], row.get("error")
        assert "\n" not in row["error"] and " at 0x" not in row["error"]
    assert sum(r["has_output"] for r in rows) == 16 - len(reasons)


def test_score_records_the_same_files_as_missing(hostile):
    bench, outputs, reasons = hostile
    folder = outputs / "noisy" / "PaintBench" / "task_0"
    answers = [bench / "PaintBench" / "task_0" / f"{k:03d}_answer.png" for k in range(4)]
    inputs = [bench / "PaintBench" / "task_0" / f"{k:03d}_input.png" for k in range(4)]
    scores = score([folder / f"{k:04d}_output.png" for k in range(4)], answers, inputs,
                   missing="zero")
    for s, reason in zip(scores, reasons.values(), strict=True):
        assert not s.has_output and reason in s.error


def test_zero_size_output_in_a_batch_is_missing_alone():
    answer = np.zeros((8, 8, 3), np.uint8)
    inp = answer.copy()
    inp[:2] = 9
    first, second = score([np.zeros((0, 5, 3), np.uint8), answer], [answer, answer],
                          [inp, inp])
    assert not first.has_output and "empty image" in first.error
    assert second.has_output and second.miou == 1.0


def test_unreadable_task_folder_is_missing_not_fatal(tmp_path, monkeypatch):
    bench, outputs = _tree(tmp_path)
    locked = str(outputs / "noisy" / "PaintBench" / "task_1")
    real_open, real_stat, real_listdir = os.open, os.stat, os.listdir

    def deny(path):
        if str(path).startswith(locked + "/") or str(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))

    def fake_open(path, *args, **kwargs):
        deny(path)
        return real_open(path, *args, **kwargs)

    def fake_stat(path, *args, **kwargs):
        if str(path) != locked:
            deny(path)
        return real_stat(path, *args, **kwargs)

    def fake_listdir(path="."):
        deny(path)
        return real_listdir(path)

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "stat", fake_stat)
    monkeypatch.setattr(os, "listdir", fake_listdir)
    summary = evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False)
    monkeypatch.undo()
    rows = read_rows(tmp_path / "r" / RESULTS_NAME)
    denied = [r for r in rows if r["model"] == "noisy" and r["task"] == "task_1"]
    assert summary.scored == 16 and len(denied) == 4
    assert all(not r["has_output"] and "Permission denied" in r["error"] for r in denied)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads folders without read permission")
def test_unreadable_task_folder_for_real(tmp_path):
    bench, outputs = _tree(tmp_path)
    folder = outputs / "noisy" / "PaintBench" / "task_1"
    folder.chmod(0)
    try:
        summary = evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False)
    finally:
        folder.chmod(0o755)
    assert summary.scored == 16 and summary.missing == 4


def _ramp16(shape) -> np.ndarray:
    return (np.arange(int(np.prod(shape)), dtype=np.uint32) * 2654435761 % 65536).astype(
        np.uint16).reshape(shape)


def test_16_bit_images_keep_their_high_byte():
    import imagecodecs

    from paintkit.io.images import load_rgb

    gray = _ramp16((9, 7))
    for data in (imagecodecs.png_encode(gray), _pil_bytes(
            Image.frombytes("I;16", (7, 9), gray.astype("<u2").tobytes()), "TIFF")):
        decoded = load_rgb(data)
        assert np.array_equal(decoded, np.repeat((gray >> 8).astype(np.uint8)[..., None], 3, -1))
    rgb = _ramp16((9, 7, 3))
    assert np.array_equal(load_rgb(imagecodecs.png_encode(rgb)), (rgb >> 8).astype(np.uint8))


def _pil_bytes(image: Image.Image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return buffer.getvalue()


# Every mode Pillow opens from a file, in a format that stores it; the reference is
# Pillow's convert("RGB") (SPEC 1.1) except 16-bit gray, whose high byte is kept.
MODES = [("1", "PNG"), ("L", "PNG"), ("LA", "PNG"), ("P", "PNG"), ("RGB", "PNG"),
         ("RGBA", "PNG"), ("I;16", "PNG"), ("I", "TIFF"), ("F", "TIFF"), ("CMYK", "TIFF"),
         ("YCbCr", "JPEG"), ("LAB", "TIFF"), ("I;16B", "TIFF")]


@pytest.mark.parametrize("mode, fmt", MODES)
def test_every_mode_decodes_like_the_reference(mode, fmt):
    from paintkit.io.images import load_rgb

    rng = np.random.default_rng(len(mode))
    base = Image.fromarray(rng.integers(0, 256, (6, 5, 3), dtype=np.uint8))
    if mode.startswith("I;16"):
        values = _ramp16((6, 5))
        image = Image.frombytes(mode, (5, 6), values.astype(
            ">u2" if mode == "I;16B" else "<u2").tobytes())
    elif mode in ("I", "F"):
        image = Image.fromarray(rng.integers(-20, 300, (6, 5)).astype(
            np.int32 if mode == "I" else np.float32), mode)
    else:
        image = base.convert(mode)
    reopened = Image.open(io.BytesIO(_pil_bytes(image, fmt)))
    if reopened.mode.startswith("I;16"):
        expected = np.asarray(reopened).astype(np.uint16) >> 8
        expected = np.repeat(expected.astype(np.uint8)[..., None], 3, -1)
    else:
        expected = np.asarray(reopened.convert("RGB"))
    assert np.array_equal(load_rgb(_pil_bytes(image, fmt)), expected), reopened.mode


def test_one_run_per_results_folder(hostile, tmp_path):
    bench, outputs, _ = hostile
    with FolderLock(tmp_path, LOCK_NAME, "paintkit eval"), \
            pytest.raises(FolderBusyError, match="another 'paintkit eval'"):
        evaluate(bench, outputs, tmp_path, jobs=1, progress=False)
    assert not (tmp_path / RESULTS_NAME).exists()


def test_damaged_lines_are_repaired_and_rows_stay_unique(hostile, tmp_path, capsys):
    bench, outputs, _ = hostile
    args = ["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
            str(tmp_path), "--jobs", "1", "--quiet"]
    assert main(args) == 0
    path = tmp_path / RESULTS_NAME
    lines = path.read_text().splitlines(keepends=True)
    damaged = lines[:3] + [lines[3][:25] + "\n", "{}\n", lines[0]] + lines[4:-1] \
        + [lines[-1][:40]]
    path.write_text("".join(damaged))
    stale = tmp_path / f".{RESULTS_NAME}.k1ll3d.tmp"  # a run killed mid-rewrite
    stale.write_text("partial")
    capsys.readouterr()
    assert main(args) == 0
    assert not stale.exists()
    err = capsys.readouterr().err
    assert "dropped 3 damaged line(s)" in err and "duplicate" in err and "Traceback" not in err
    text = path.read_text()
    rows = [json.loads(line) for line in text.splitlines()]  # valid JSON Lines
    keys = [(r["model"], r["benchmark"], r["task"], r["idx"]) for r in rows]
    assert len(keys) == len(set(keys)) == 16 and text.endswith("\n")
    assert "2 rows written" in err


def test_outputs_that_appear_or_change_are_rescored(tmp_path):
    bench, outputs = _tree(tmp_path)
    target = outputs / "noisy" / "PaintBench" / "task_0" / "0001_output.png"
    good = target.read_bytes()
    target.unlink()
    first = evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False)
    assert (first.scored, first.missing) == (16, 1)
    target.write_bytes(good)  # the model's output arrived late
    second = evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False)
    assert (second.scored, second.rescored, second.missing) == (1, 1, 0)
    exact = outputs / "exact" / "PaintBench" / "task_0" / "0001_output.png"
    target.write_bytes(exact.read_bytes())  # rewritten with other content
    third = evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False)
    assert (third.scored, third.rescored) == (1, 1)
    rows = read_rows(tmp_path / "r" / RESULTS_NAME)
    assert len(rows) == 16
    row = next(r for r in rows if (r["model"], r["task"], r["idx"]) == ("noisy", "task_0", 1))
    assert row["output"]["cie76_mean"]["iou"] == 1.0  # scored on the new (exact) file
    assert evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False).scored == 0


def test_two_runs_write_identical_files(tmp_path):
    bench, outputs = _tree(tmp_path, problems=12)
    (outputs / "noisy" / "PaintBench" / "task_1" / "0002_output.png").write_bytes(b"garbage")
    for name in ("a", "b"):
        evaluate(bench, outputs, tmp_path / name, jobs=2, progress=False, chunk_size=1)
    a = (tmp_path / "a" / RESULTS_NAME).read_bytes()
    assert a == (tmp_path / "b" / RESULTS_NAME).read_bytes()
    assert b" at 0x" not in a and b"cannot identify image" in a


def test_eval_workers_die_with_their_parent(tmp_path):
    bench, outputs = _tree(tmp_path, problems=400, size=96)
    out = tmp_path / "r"
    command = [sys.executable, "-m", "paintkit.cli.main", "eval", "--benchmarks", str(bench),
               "--outputs", str(outputs), "--out", str(out), "--jobs", "2", "--quiet"]
    results = out / RESULTS_NAME
    kill_parent_and_check_workers(
        command, lambda: results.exists() and results.stat().st_size > 0)


def test_bad_problem_json_and_unknown_task_stop_before_scoring(tmp_path, capsys):
    bench, outputs = _tree(tmp_path)
    (bench / "PaintBench" / "task_1" / "003.json").write_text("{not json")
    with pytest.raises(LayoutError, match=r"task_1/003\.json: cannot read problem metadata"):
        evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False)
    assert not (tmp_path / "r" / RESULTS_NAME).exists()
    code = main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(tmp_path / "r"), "--task", "nosuch"])
    err = capsys.readouterr().err
    assert code == 2 and "no task folder named nosuch" in err and "task_0, task_1" in err


def test_near_miss_output_names_are_listed_once(tmp_path, capsys):
    bench, outputs = _tree(tmp_path)
    folder = outputs / "noisy" / "PaintBench" / "task_0"
    png = encode_png(np.zeros((4, 4, 3), np.uint8))
    for name in ("001_output.png", "0001_output.PNG", "0001_output.jpg"):
        (folder / name).write_bytes(png)
    (outputs / "noisy" / "PaintBench" / "task_9").mkdir()
    code = main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(tmp_path / "r"), "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 0 and err.count("ignored 4 files") == 1
    for name in ("001_output.png", "0001_output.PNG", "0001_output.jpg", "task_9"):
        assert err.count(name) == 1


def test_progress_in_a_pipe_is_plain_lines(monkeypatch):
    clock = iter(range(0, 1000, 2))  # 2 s per call
    monkeypatch.setattr("paintkit.io.progress._now", lambda: next(clock))
    stream = io.StringIO()
    bar = Progress(10, verb="scored", stream=stream)
    for _ in range(10):
        bar.update(processed=1)
    bar.close()
    text = stream.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert 2 <= len(lines) <= 5 and lines[-1].startswith("scored [") and " 10/10 100%" in lines[-1]


def test_results_and_diffs_follow_the_umask(tmp_path):
    import stat

    import paintkit.io.atomic as atomic

    bench, outputs = _tree(tmp_path)
    old = os.umask(0o002)
    atomic._umask.cache_clear()
    try:
        evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False, save_images=True,
                 models=["noisy"])
        path = tmp_path / "r" / RESULTS_NAME
        path.write_text(path.read_text() + "{}\n")  # forces the atomic rewrite (repair)
        evaluate(bench, outputs, tmp_path / "r", jobs=1, progress=False)
    finally:
        os.umask(old)
        atomic._umask.cache_clear()
    files = [p for p in (tmp_path / "r").rglob("*") if p.is_file()]
    assert len(files) > 10
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o664}


def test_eval_counts_equal_the_metric_api():
    from paintkit.eval.problem import score_output
    from paintkit.metrics.coerce import MissingImage

    rng = np.random.default_rng(3)
    answer = rng.integers(0, 256, (20, 24, 3), dtype=np.uint8)
    inp = answer.copy()
    inp[5:12, 3:15] = 40
    noisy = np.clip(answer.astype(np.int16) + rng.integers(-4, 5, answer.shape), 0, 255)
    for output in (noisy.astype(np.uint8), answer[::2, ::3], inp, MissingImage("gone")):
        mine, _ = score_output(output, answer, inp)
        (theirs,) = score([None if isinstance(output, MissingImage) else output], [answer],
                          [inp])
        assert mine.to_schema() == theirs.to_schema()
        assert mine.has_output == theirs.has_output


def test_read_only_results_folder_is_one_clear_line(tmp_path, monkeypatch, capsys):
    import errno

    import paintkit.io.folder_lock as folder_lock

    bench, outputs = _tree(tmp_path)
    real_open = open

    def read_only(path, *args, **kwargs):
        if str(path).endswith(LOCK_NAME):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(folder_lock, "open", read_only, raising=False)
    code = main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(tmp_path / "r"), "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert err.strip().splitlines() == [
        f"paintkit eval: error: {tmp_path / 'r'}: cannot write into this folder (Read-only "
        "file system); choose a writable folder"]
