"""``paintkit eval --turns``: every turn scored against its own exact answer."""

import json

from paintkit.cli.main import main
from paintkit.compositional.turns import answer_pixels
from paintkit.io.images import load_rgb, write_png


def test_each_turn_is_scored_against_its_own_answer(tmp_path, capsys):
    bench, outs, results = tmp_path / "bench", tmp_path / "outs", tmp_path / "results"
    assert main(["generate", "compositional", "--steps", "3", "--out", str(bench), "--per-cell",
                 "1", "--conditions", "n_med", "--tasks", "conversational", "--engine",
                 "inprocess", "--quiet"]) == 0
    folder = bench / "Compositional" / "conversational_steps3"
    meta = json.loads((folder / "000.json").read_text())
    assert main(["baseline", "oracle", "--benchmarks", str(bench), "--outputs", str(outs)]) == 0
    model = outs / "oracle" / "Compositional" / "conversational_steps3"
    write_png(model / "0000_turn1_output.png", answer_pixels(meta["turns"][0]))  # right
    write_png(model / "0000_turn2_output.png", load_rgb(folder / "000_input.png"))  # wrong
    capsys.readouterr()
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(results), "--quiet", "-j", "1", "--turns"]) == 0
    err = capsys.readouterr().err
    assert "ignored" not in err and "9 turn rows" not in err and "3 turn rows" in err
    rows = [json.loads(line) for line in (results / "turn_stats.jsonl").read_text().splitlines()]
    assert [(r["turn"], r["turns"], r["operation"]) for r in rows] == \
        [(t["turn"], 3, t["operation"]) for t in meta["turns"]]
    miou = [r["output"]["cie76_mean"]["iou"] for r in rows]
    assert miou[0] == 1.0 and miou[2] == 1.0  # turn 3 read the final NNNN_output.png
    assert miou[1] < 0.5  # the input is not turn 2's answer
    # the default rows (problem_stats.jsonl) still score the final image only
    default = [json.loads(x) for x in (results / "problem_stats.jsonl").read_text().splitlines()]
    assert len(default) == 1 and default[0]["output"]["cie76_mean"]["iou"] == 1.0


def _conversational(tmp_path):
    bench, outs = tmp_path / "bench", tmp_path / "outs"
    assert main(["generate", "compositional", "--steps", "2", "--out", str(bench), "--per-cell",
                 "1", "--conditions", "n_med", "--tasks", "conversational", "--engine",
                 "inprocess", "--quiet"]) == 0
    folder = bench / "Compositional" / "conversational_steps2"
    assert main(["baseline", "noise", "--benchmarks", str(bench), "--outputs", str(outs)]) == 0
    return bench, outs, folder


def test_turns_use_the_runs_colour_difference(tmp_path, capsys):
    """``eval --turns --delta-e ciede2000`` scored turns with CIE76 and recorded no formula
    (issue 23, item 7): one formula per results folder."""
    from paintkit.metrics import score

    bench, outs, folder = _conversational(tmp_path)
    model = outs / "noise" / "Compositional" / "conversational_steps2"
    (model / "0000_turn1_output.png").write_bytes((model / "0000_output.png").read_bytes())
    results = tmp_path / "results"
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(results), "--quiet", "-j", "1", "--turns", "--delta-e", "ciede2000"]) == 0
    assert "turn 1: mIoU" in capsys.readouterr().err
    rows = [json.loads(line) for line in (results / "turn_stats.jsonl").read_text().splitlines()]
    meta = json.loads((folder / "000.json").read_text())
    output = load_rgb(model / "0000_output.png")
    before = load_rgb(folder / "000_input.png")
    for row, turn in zip(rows, meta["turns"], strict=True):
        assert row["delta_e"] == "ciede2000" and "cie76_mean" not in row["output"]
        assert row["has_output"]
        answer = answer_pixels(turn)
        (expected,) = score([output], [answer], [before], delta_e="ciede2000")
        assert row["output"] == expected.to_schema()
        before = answer
    default = json.loads((results / "problem_stats.jsonl").read_text())
    assert default["delta_e"] == "ciede2000"


def test_a_turn_without_its_number_is_one_clear_line(tmp_path, capsys):
    bench, outs, folder = _conversational(tmp_path)
    meta = json.loads((folder / "000.json").read_text())
    del meta["turns"][1]["turn"]
    (folder / "000.json").write_text(json.dumps(meta))
    code = main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(tmp_path / "r"), "--quiet", "-j", "1", "--turns"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and "Traceback" not in "\n".join(err)
    assert err[-1] == (f"paintkit eval: error: {folder / '000.json'}: entry 2 of 2 in 'turns' "
                       "has no 'turn' number; expected 'turn': 2")


def test_turns_without_their_files_say_so(tmp_path, capsys):
    """The oracle baseline writes final images only: ``eval --turns`` said "turn 1: mIoU
    0.000 over N rows" without saying why (issue 37, item 6)."""
    bench, outs, _ = _conversational(tmp_path)
    capsys.readouterr()
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(tmp_path / "results"), "--quiet", "-j", "1", "--turns"]) == 0
    err = capsys.readouterr().err
    assert "turn 1: mIoU 0.000 over 1 row (1 without an output)" in err
    assert "turn 2: mIoU" in err and "turn 2: mIoU 0.000 over 1 row (" not in err
    assert ("paintkit eval: --turns: noise wrote no NNNN_turn<k>_output.png for turn 1 (final "
            "images only): those turns score 0 for it") in err
