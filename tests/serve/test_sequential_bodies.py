"""Large bodies read in turn (paintkit.serve.sequential_bodies): first come first served, and a
turn is a bound, never a block."""

from __future__ import annotations

import asyncio

import pytest

from paintkit.serve.sequential_bodies import BodyTurns


def run(coroutine):
    return asyncio.run(coroutine)


def test_turns_go_in_arrival_order():
    async def scenario():
        turns, order = BodyTurns(hold_s=10, wait_s=10), []

        async def reader(name, work_s):
            release = await turns.take()
            order.append(f"{name} starts")
            await asyncio.sleep(work_s)
            order.append(f"{name} ends")
            release()

        first = asyncio.create_task(reader("a", 0.05))
        await asyncio.sleep(0)  # a holds the turn
        rest = [asyncio.create_task(reader(name, 0.01)) for name in "bcd"]
        await asyncio.gather(first, *rest)
        return turns, order

    turns, order = run(scenario())
    assert order == ["a starts", "a ends", "b starts", "b ends", "c starts", "c ends",
                     "d starts", "d ends"]
    assert not turns.busy and turns.waited_out == 0 and turns.held_out == 0


def test_a_stalled_holder_keeps_the_turn_for_hold_s_only():
    async def scenario():
        turns = BodyTurns(hold_s=0.1, wait_s=10)
        stalled = await turns.take()  # never gives it back in time
        turns.hold_s = 30  # the next holder keeps its turn however slow this machine is
        loop = asyncio.get_running_loop()
        start = loop.time()
        release = await turns.take()
        waited = loop.time() - start
        third = asyncio.create_task(turns.take())
        await asyncio.sleep(0.02)
        stalled()  # late: must not hand the second reader's turn to the third
        await asyncio.sleep(0.02)
        assert not third.done(), "a late release gave away someone else's turn"
        release()
        (await third)()
        return turns, waited

    turns, waited = run(scenario())
    assert 0.08 < waited < 2
    assert turns.held_out == 1 and turns.waited_out == 0 and not turns.busy


def test_a_request_waits_for_the_turn_wait_s_at_most_then_reads_without_it():
    async def scenario():
        turns = BodyTurns(hold_s=10, wait_s=0.1)
        holder = await turns.take()
        loop = asyncio.get_running_loop()
        start = loop.time()
        no_turn = await turns.take()
        waited = loop.time() - start
        no_turn()  # a no-op: the turn is still the holder's
        assert turns.busy
        holder()
        return turns, waited

    turns, waited = run(scenario())
    assert 0.08 < waited < 2
    assert turns.waited_out == 1 and not turns.busy


@pytest.mark.parametrize("handed_first", [False, True],
                         ids=["cancelled while waiting", "cancelled as it is handed the turn"])
def test_a_reader_that_goes_away_does_not_keep_the_turn(handed_first):
    async def scenario():
        turns = BodyTurns(hold_s=10, wait_s=10)
        holder = await turns.take()
        gone = asyncio.create_task(turns.take())
        after = asyncio.create_task(turns.take())
        await asyncio.sleep(0.01)
        if handed_first:
            holder()  # the turn goes to `gone`, which has not run yet ...
        gone.cancel()  # ... and is cancelled before it does (or while it waits)
        if not handed_first:
            holder()
        with pytest.raises(asyncio.CancelledError):
            await gone
        (await asyncio.wait_for(after, 2))()  # the turn went on past `gone`
        return turns

    assert not run(scenario()).busy


def test_a_new_event_loop_starts_with_a_free_turn():
    turns = BodyTurns(hold_s=10, wait_s=10)

    async def take_and_keep():
        return await turns.take()

    old = run(take_and_keep())  # the first loop ends with its holder never done

    async def second_loop():
        release = await asyncio.wait_for(take_and_keep(), 2)  # not a dead loop's turn
        old()  # the old holder gives back late: the new holder keeps its turn
        assert turns.busy
        release()

    run(second_loop())
    assert turns.waited_out == 0 and not turns.busy
