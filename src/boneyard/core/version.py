"""The one version number of boneyard (pyproject.toml and CHANGELOG.md are held to it by
tests/core/test_version.py)."""

__version__ = "0.2.0"
