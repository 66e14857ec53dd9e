"""A stand-in for Flow-Factory's package, holding only what a reward model derives from.

Flow-Factory does not install from PyPI; this names the classes its ``RewardProcessor`` sorts
reward models by (``src/flow_factory/rewards/abc.py`` at X-GenGroup/Flow-Factory a0b2bc5),
written here in this project's words. Put its parent folder on ``sys.path`` only in a
subprocess: paintkit resolves its reward models' base class when first imported.
"""
