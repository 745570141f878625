"""The secret scan against its corpus, through the real pipeline (a
checkpoint of uncommitted work, the scan a push runs): every true secret
refused on its line, in every encoding, a 3 MB log included; at most 2 false
positives on the non-secret corpus; none once it is all committed and
pushed unchanged, all of the true ones while that commit is not pushed.
The benchmark prints the same numbers (benchmarks/secrets.py)."""

from __future__ import annotations

from pathlib import Path

from tests.secrets_corpus import measure


def test_recall_and_false_positives_on_the_corpus(tmp_path: Path) -> None:
    report = measure.run(tmp_path, runs=1)
    assert report.true_total >= 40 and report.false_total >= 40
    assert report.missed == []  # 100 % of the true secrets refused, on the right line
    assert len(report.false_flagged) <= 2, report.false_flagged
    assert report.committed_flagged == []  # what the remote has is never flagged
    assert report.unpushed_missed == []  # a commit never pushed is new: all of it is scanned
