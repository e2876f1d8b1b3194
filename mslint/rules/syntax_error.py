from __future__ import annotations

from mslint.diagnostics import Severity
from mslint.rules.base import Rule
from mslint.settings import Settings


class SyntaxErrorRule(Rule):
    """
    ## What it does
    Reports a file that Python cannot parse, or that is nested too deeply to parse or analyse
    (thousands of chained operators), instead of stopping the run. Files are decoded as Python
    decodes them: a UTF-8 byte order mark or a `# -*- coding: NAME -*-` comment (PEP 263) names
    the encoding, else UTF-8. A file whose bytes are not valid in that encoding (a configuration
    file saved in GBK, with no coding comment) is reported here too, at its first bad byte
    (`cannot decode: byte 0xc1 at offset 4 is not valid utf-8, ...`), as Python refuses to import
    it: the other files are checked on.

    ## Why it breaks graph mode
    MindSpore compiles graph code from its source file: a file that does not parse
    cannot be imported, let alone compiled. No other rule can look at it.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x)
            return x
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return x
    ```
    """

    code = "MS001"
    symbol = "syntax-error"
    summary = "the file cannot be parsed as Python"

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR
