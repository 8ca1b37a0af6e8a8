"""The Python example of the README (section "From Python") and of docs/python.md runs as
written."""

import re

import pytest

from conftest import WORKSPACE


@pytest.mark.parametrize("page", ["README.md", "docs/python.md"])
def test_the_python_example_runs(page, monkeypatch, capsys):
    text = (WORKSPACE / page).read_text()
    if page == "README.md":
        text = text.split("## From Python", 1)[1].split("\n## ", 1)[0]
    example = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(WORKSPACE)
    exec(compile(example, page, "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    # The second print is perft(3) of games/breakthrough.rbg, which counts like the corpus
    # breakthrough (reference-perft.csv: 11132 leaves, 11639 states at depth 3).
    assert printed[1] == "(11132, 11639)"
