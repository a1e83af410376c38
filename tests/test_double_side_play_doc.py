"""docs/rules/double-side-play.md and the code agree: every rule and ruling is named by a test,
every rule id the engine rejects with is in the document, and the tests cite no unknown id."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules" / "double-side-play.md"
ENGINE = ROOT / "engines" / "double_side_play"
RULE_ID = re.compile(r"DSP-(?:R\d+|\d+\.\d+)")
TEST_NAME = re.compile(r"test_dsp_(r\d+|\d+_\d+)_")


def _doc_ids() -> set[str]:
    return set(RULE_ID.findall(DOC.read_text(encoding="utf-8")))


def _ids_named_by_tests() -> set[str]:
    """Ids in a test function's name (test_dsp_7_3_..., test_dsp_r2_...) or docstring."""
    named = set()
    for path in sorted(ROOT.glob("tests/test_double_side_play*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                match = TEST_NAME.match(node.name)
                if match:
                    named.add("DSP-" + match.group(1).upper().replace("_", "."))
                named.update(RULE_ID.findall(ast.get_docstring(node) or ""))
    return named


def test_the_document_numbers_rules_and_rulings():
    ids = _doc_ids()
    assert len(ids) >= 40
    assert {"DSP-1.1", "DSP-7.3", "DSP-9.3", "DSP-10.1", "DSP-R1", "DSP-R3"} <= ids
    text = DOC.read_text(encoding="utf-8")
    for ruling in sorted(i for i in ids if "-R" in i):
        assert f"**Ruling {ruling}**" in text, f"{ruling} is cited but never stated"


def test_every_rule_and_ruling_is_named_by_a_test():
    missing = sorted(_doc_ids() - _ids_named_by_tests())
    assert not missing, f"no test names {missing}"


def test_tests_cite_only_ids_of_the_document():
    unknown = sorted(_ids_named_by_tests() - _doc_ids())
    assert not unknown, f"tests cite ids the document lacks: {unknown}"


def test_every_rejection_of_the_engine_names_a_documented_rule():
    used = set()
    for path in ENGINE.glob("*.py"):
        used.update(re.findall(r'Reject\(\s*"([^"]+)"', path.read_text(encoding="utf-8")))
    assert used, "the engine rejects nothing?"
    assert used <= _doc_ids(), f"undocumented rule ids: {sorted(used - _doc_ids())}"
