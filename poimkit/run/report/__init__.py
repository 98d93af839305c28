"""The report pages of a run folder (``report.html``): HTML from a run's summary.

`page` writes a classification run's page (`page.write_report`), `regression`
a regression run's (`regression.write_regression_report`); `models` and
`known` hold the words on the models compared and the known motifs, `html`
the pieces both pages share (style, tables, embedded figures, numbers). The
jobs of `poimkit.run` call them last, with the summary they wrote.
"""
