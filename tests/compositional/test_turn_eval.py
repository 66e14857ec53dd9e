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
    assert main(["baseline", "oracle", "--benchmarks", str(bench), "--out", str(outs)]) == 0
    model = outs / "oracle" / "Compositional" / "conversational_steps3"
    write_png(model / "0000_turn1_output.png", answer_pixels(meta["turns"][0]))  # right
    write_png(model / "0000_turn2_output.png", load_rgb(folder / "000_input.png"))  # wrong
    capsys.readouterr()
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--out",
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
