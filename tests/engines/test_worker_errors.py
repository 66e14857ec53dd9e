"""Errors that cross the worker pool: every exception type of paintkit survives pickling,
and a generator's error in a worker comes back as that error (naming the task, condition,
size and reason), never as a worker killed from outside."""

import importlib
import inspect
import pickle
import pkgutil
import re
from concurrent.futures import BrokenExecutor
from pathlib import Path

import pytest

import paintkit
from paintkit.attempts import AttemptsExhausted, ImpossibleSlot
from paintkit.cli.main import main
from paintkit.engines import write_suite
from paintkit.errors import RejectedSeed
from paintkit.parallel import WorkerError, call_portably, portable
from tests.support.generate_helpers import small_suite

#: Arguments of the exception types whose constructor takes more than one message.
ARGS = {
    "AttemptsExhausted": [("paintbench comparison/default/n_xhigh@512x512 slot 0", 200,
                           RejectedSeed("9 distinct heights do not fit the size range")),
                          ("slot", 7, None, 121.5)],
    "DuplicateKeyError": [(Path("shards"), [("key", "a.tar", "b.tar")])],
}
#: Optional parts whose missing third-party module may keep a paintkit module from importing.
OPTIONAL = {"ray", "fastapi", "starlette", "uvicorn", "pyarrow", "datasets", "torchmetrics"}


def _exception_types() -> dict[str, type]:
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(paintkit.__path__, "paintkit."):
        if info.name.endswith("__main__"):  # runs the command line
            continue
        try:
            module = importlib.import_module(info.name)
        except ModuleNotFoundError as exc:
            if (exc.name or "").split(".")[0] in OPTIONAL:
                continue
            raise
        for obj in vars(module).values():
            if inspect.isclass(obj) and issubclass(obj, BaseException) and \
                    obj.__module__ == module.__name__:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


def _same(a: BaseException, b: BaseException) -> bool:
    return type(a) is type(b) and str(a) == str(b) and a.args == b.args and \
        {k: str(v) for k, v in vars(a).items()} == {k: str(v) for k, v in vars(b).items()}


def test_every_exception_type_of_paintkit_round_trips_through_pickle():
    types = _exception_types()
    # the walk reaches every part: the shared errors, the generators', the service's, the CLI's
    for name in ("paintkit.attempts.AttemptsExhausted", "paintkit.attempts.ImpossibleSlot",
                 "paintkit.errors.SceneSamplingError", "paintkit.writers.base.WriteError",
                 "paintkit.cli.signals.Terminated", "paintkit.parallel.WorkerError"):
        assert name in types
    broken = []
    for name, cls in sorted(types.items()):
        for args in ARGS.get(cls.__name__, [("a reason naming the problem",)]):
            exc = cls(*args)
            exc.note = "an attribute set after raising"  # kept too (RetryPolicy sets some)
            try:
                back = pickle.loads(pickle.dumps(exc))
            except Exception as error:  # noqa: BLE001 - the report lists them all
                broken.append(f"{name}{args}: {error!r}")
                continue
            if not _same(exc, back):
                broken.append(f"{name}{args}: {back!r} differs from {exc!r}")
    assert not broken, "\n".join(broken)


def test_attempts_exhausted_keeps_its_fields_through_pickle():
    exc = AttemptsExhausted(*ARGS["AttemptsExhausted"][0])
    back = pickle.loads(pickle.dumps(exc))
    assert (back.what, back.attempts, str(back.last)) == (exc.what, 200, str(exc.last))
    assert isinstance(back, RuntimeError) and "9 distinct heights" in str(back)


class _Unpicklable(Exception):
    def __init__(self, a, b):  # pickling calls cls(*args) with one argument: TypeError
        super().__init__(f"{a} and {b}")


def _raise_unpicklable():
    raise _Unpicklable("one", "two")


def test_an_error_that_cannot_be_pickled_comes_back_as_its_text():
    assert isinstance(portable(ValueError("x")), ValueError)
    with pytest.raises(WorkerError, match="_Unpicklable: one and two"):
        call_portably(_raise_unpicklable)


def _impossible_suite():
    return small_suite(tasks=("comparison",), conditions=("n_xhigh",), per_cell=1,
                       preservation=False, size=(512, 512))


@pytest.mark.parametrize("engine", ["process", "inprocess"])
def test_a_generator_error_in_a_worker_is_that_error(tmp_path, engine):
    try:
        write_suite(_impossible_suite(), tmp_path, engine=engine, jobs=1, progress=False)
    except BrokenExecutor as exc:  # what a pool reports when the error cannot cross
        pytest.fail(f"reported as a broken pool: {exc!r}")
    except AttemptsExhausted as exc:
        assert re.search(r"comparison/default/n_xhigh@512x512 slot 0: .*9 distinct "
                         r"(heights|widths) do not fit the size range", str(exc))
    else:
        pytest.fail("an impossible cell was generated")


@pytest.mark.parametrize("engine", ["process", "inprocess"])
def test_generate_prints_one_line_for_an_impossible_cell(tmp_path, capsys, monkeypatch, engine):
    # as if the cell's first problem passed the check before the run and a later one failed
    monkeypatch.setattr("paintkit.engines.feasibility.check_cells", lambda *a, **k: [])
    code = main(["generate", "paintbench", "--out", str(tmp_path / "x"), "--tasks",
                 "comparison", "--conditions", "n_xhigh", "--per-cell", "1", "--size",
                 "512x512", "--engine", engine, "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and "killed" not in err and "out of memory" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paintkit generate: error: ")
    assert "comparison/default/n_xhigh@512x512" in lines[0] and "--size" in lines[0]


def test_a_shape_that_cannot_fit_names_the_slot(tmp_path):
    suite = small_suite(tasks=("copying",), conditions=("vertical",), per_cell=2,
                        preservation=False, size=(256, 256))
    with pytest.raises(ImpossibleSlot, match=r"copying/default/vertical@144x256 slot \d: "
                                             r"2 shapes of at least 32 px cannot fit"):
        write_suite(suite, tmp_path, engine="inprocess", progress=False)
