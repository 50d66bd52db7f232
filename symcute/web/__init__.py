"""symcute.web: ``symcute serve``, a local page for the calc language, the prover and the bank model.

- :mod:`.compute`: what the page asks (an expression's value and pictures as data, a claim's proof, a
  copy's banks), from text, as the CLI reads it;
- :mod:`.pool`: the bounded pool of worker processes every request runs in (time limit, memory cap);
- :mod:`.app`: the Starlette application (one page, its script and style, three JSON endpoints);
- ``static/``: the page (HTML, one script, one style sheet; no inline script).

It sits above the expression language and below the CLI (tests/test_layers.py).  docs/web.md.
"""
