"""The README's Python example runs as written."""

import re

from conftest import WORKSPACE


def test_the_readme_example_runs(monkeypatch, capsys):
    readme = (WORKSPACE / "README.md").read_text()
    section = readme.split("## From Python", 1)[1].split("\n## ", 1)[0]
    example = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(WORKSPACE)
    exec(compile(example, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    # The second print is perft(3) of games/breakthrough.rbg, which counts like the corpus
    # breakthrough (reference-perft.csv: 11132 leaves, 11639 states at depth 3).
    assert printed[1] == "(11132, 11639)"
