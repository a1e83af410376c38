"""Package discovery only (metadata is in pyproject.toml).

templates/ sits at the top of the repository, as ARCHITECTURE.md lays out, but
installs as ``companion.templates`` (with its static/ files as package data) so a
wheel serves the pages; pyproject.toml alone cannot map one folder under a
discovered package.
"""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["engines*", "vision*", "devices*", "companion*"]) + ["companion.templates"],
    package_dir={"companion.templates": "templates"},
)
