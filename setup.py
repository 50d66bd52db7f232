"""Build hook for the optional C fast path of the Layout constructor (symcute/core/_fastlayout.c).

Everything else is in pyproject.toml.  The extension is optional: where no C compiler (or no Python
headers) is found, ``pip install .`` still succeeds and symcute runs its pure-Python checks instead.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("symcute.core._fastlayout", ["symcute/core/_fastlayout.c"], optional=True)])
