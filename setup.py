"""Package discovery for paintkit.

``kernels/`` and ``renderers/`` sit at the top of the repository but install inside the
``paintkit`` namespace (``paintkit.kernels``, ``paintkit.renderers``): generic top-level
module names would collide with other packages in users' environments.
"""

from setuptools import find_packages, setup

NAMESPACED = {"kernels": "paintkit.kernels", "renderers": "paintkit.renderers"}


def _packages() -> list[str]:
    packages = find_packages(include=["paintkit", "paintkit.*"])
    for folder, dotted in NAMESPACED.items():
        for found in find_packages(include=[folder, f"{folder}.*"]):
            packages.append(dotted + found[len(folder):])
    return packages


setup(
    packages=_packages(),
    package_dir={"paintkit": "paintkit", **{v: k for k, v in NAMESPACED.items()}},
)
