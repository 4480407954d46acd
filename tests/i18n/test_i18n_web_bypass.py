"""Issue 6: the web pages send every word through the catalogs (t(), tn(), data-i18n attributes).

A scan of web/*.js and web/*.html flags English given to a person without the catalog:
- JS: a string literal with words assigned to textContent / innerText / innerHTML / title /
  placeholder / alt / ariaLabel / value, given to alert / confirm / prompt or to
  setAttribute("title" | "aria-label" | "placeholder" | "alt", ...), or as a child of el(tag, attrs, ...);
- HTML: text with words in an element without data-i18n, and title / placeholder / alt / aria-label
  attributes without their data-i18n-<attribute>.
The project's name, "hippodrome", is a name and the same in every language.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "hippodrome" / "web"
NAMES = {"hippodrome"}
WORD = re.compile(r"[A-Za-z]{2,}")
LITERAL = r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)"""
JS_SINKS = [
    re.compile(r"\.(?:textContent|innerText|innerHTML|title|placeholder|alt|ariaLabel|value)\s*\+?=\s*" + LITERAL),
    re.compile(r"\b(?:alert|confirm|prompt)\(\s*" + LITERAL),
    re.compile(r"setAttribute\(\s*['\"](?:title|aria-label|placeholder|alt)['\"]\s*,\s*" + LITERAL),
    re.compile(r"\bel\(\s*" + LITERAL + r"\s*,\s*(?:\{[^{}]*\}|null|undefined)\s*,\s*" + LITERAL),
]
TEXT_ATTRIBUTES = ("title", "placeholder", "alt", "aria-label")
VOID = {"br", "meta", "link", "img", "input", "hr"}


def without_parameters(text: str) -> str:
    """A template literal's text without its ${...} parts (which may hold braces themselves)."""
    kept, depth, index = [], 0, 0
    while index < len(text):
        if depth == 0 and text.startswith("${", index):
            depth, index = 1, index + 2
            continue
        if depth:
            depth += {"{": 1, "}": -1}.get(text[index], 0)
        else:
            kept.append(text[index])
        index += 1
    return "".join(kept)


def has_words(text: str) -> bool:
    text = without_parameters(text)
    text = re.sub(r"<[^>]*>", "", text)          # markup
    return any(word.lower() not in NAMES for word in WORD.findall(text))


def js_bypasses(source: str, name: str = "<js>") -> list[str]:
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        for sink in JS_SINKS:
            for match in sink.finditer(line):
                if has_words(match.group(match.lastindex)[1:-1]):
                    found.append(f"{name}:{number}: {line.strip()}")
    return found


class _HtmlScan(HTMLParser):
    def __init__(self, name: str):
        super().__init__()
        self.name, self.open, self.found = name, [], []

    def _attributes(self, attrs: dict) -> None:
        for attribute in TEXT_ATTRIBUTES:
            if attrs.get(attribute) and has_words(attrs[attribute]) and f"data-i18n-{attribute}" not in attrs:
                self.found.append(f"{self.name}:{self.getpos()[0]}: {attribute}={attrs[attribute]!r}")

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self._attributes(attrs)
        if tag not in VOID:
            self.open.append((tag, "data-i18n" in attrs))

    def handle_endtag(self, tag):
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        tags = [tag for tag, _ in self.open]
        if "script" in tags or "style" in tags or (self.open and self.open[-1][1]) or not has_words(data):
            return
        self.found.append(f"{self.name}:{self.getpos()[0]}: text {data.strip()!r}")


def html_bypasses(source: str, name: str = "<html>") -> list[str]:
    scan = _HtmlScan(name)
    scan.feed(source)
    return scan.found


def test_the_pages_send_every_word_through_the_catalog():
    problems = []
    for path in sorted(WEB.glob("*.js")):
        problems += js_bypasses(path.read_text(), path.name)
    for path in sorted(WEB.glob("*.html")):
        problems += html_bypasses(path.read_text(), path.name)
    assert not problems, "page text outside the catalog (use t(), tn() or data-i18n):\n" + "\n".join(problems)


@pytest.mark.parametrize("source", [
    'status.textContent = "Waiting for players";',
    "button.title = `Roll the dice for ${name}`;",
    'alert("Connection lost");',
    'input.setAttribute("placeholder", "Your name");',
    'list.append(el("li", {}, "No tables yet"));',
    'box.innerHTML = "<b>Your turn</b>";',
])
def test_js_scanner_flags_text_outside_the_catalog(source):
    assert len(js_bypasses(source)) == 1


@pytest.mark.parametrize("source", [
    'status.textContent = t("Waiting for players");',
    'button.title = t("Roll the dice for {name}", { name });',
    'box.className = "highlight";',
    'list.append(el("li", { class: "seat" }, name));',
    'cell.textContent = `${formatMoney(45)}`;',
    'document.title = `${t("Table {id}", { id })} · hippodrome`;',
])
def test_js_scanner_lets_catalog_text_through(source):
    assert js_bypasses(source) == []


def test_html_scanner():
    assert html_bypasses('<p>Place a bet</p><input placeholder="Your name">') == [
        "<html>:1: text 'Place a bet'", "<html>:1: placeholder='Your name'"]
    assert html_bypasses('<p data-i18n="Place a bet">Place a bet</p><h1>hippodrome</h1>'
                         '<input placeholder="Your name" data-i18n-placeholder="Your name">'
                         '<script>const x = "not shown";</script>') == []
