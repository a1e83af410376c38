"""The translation layer: catalogs compiled by Babel are used, English is the fallback."""

from __future__ import annotations

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from companion import i18n


def test_a_compiled_catalog_translates_and_english_is_the_fallback(tmp_path, monkeypatch):
    catalog = Catalog(locale="ja")
    catalog.add("Wrong host PIN.", "ホストのPINが違います。")
    catalog.add("{card} is not yours", "{card}はあなたのカードではありません")
    folder = tmp_path / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as fh:
        write_mo(fh, catalog)
    monkeypatch.setattr(i18n, "TRANSLATIONS", tmp_path)
    i18n.catalog.cache_clear()
    try:
        assert i18n.gettext("Wrong host PIN.", "ja") == "ホストのPINが違います。"
        assert i18n.gettext("{card} is not yours", "ja", card="7♣") == "7♣はあなたのカードではありません"
        assert i18n.gettext("Wrong host PIN.", "en") == "Wrong host PIN."
        assert i18n.gettext("Wrong host PIN.", "fr") == "Wrong host PIN."  # no catalog: English
        verdict = {"ok": False, "rule": "TC-HOST", "message": "Wrong host PIN."}
        assert i18n.translate_verdict(verdict, "ja") == {**verdict, "message": "ホストのPINが違います。"}
        assert "ja" in i18n.languages()
        i18n.set_language("ja")
        assert i18n.gettext("Wrong host PIN.") == "ホストのPINが違います。"
    finally:
        i18n.set_language("en")
        i18n.catalog.cache_clear()


def test_the_message_template_lists_the_server_sentences():
    pot = (i18n.TRANSLATIONS / "messages.pot").read_text(encoding="utf-8")
    assert 'msgid "Wrong host PIN."' in pot and 'msgid "Join a seat"' in pot
