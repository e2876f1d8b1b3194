"""``mslint report``: every graph entry's predicted status at STRICT and at LAX, in HTML, JSON or Markdown.

:mod:`~mslint.report.build` makes the report's data (one JSON document), which every renderer
reads: :mod:`~mslint.report.markdown`, :mod:`~mslint.report.html` and ``--format json`` itself.
"""

FORMATS = ("html", "json", "markdown")
