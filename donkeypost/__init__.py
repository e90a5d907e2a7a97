"""The composition root of donkeypost and its entry points.

`api`, `domain` and `workers` each do one job and never build their own collaborators;
this package is the one place that reads the settings (`settings`), wires the objects
(`bootstrap`) and starts processes: `wsgi` (gunicorn's target) and `cli` (the `donkeypost`
command). It imports the other packages; none of them imports it (a test checks the
import graph, `docs/architecture.md` draws it).
"""
