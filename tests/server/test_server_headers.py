"""The headers every answer carries, the pages' lack of inline code, the OpenAPI schema and its
docs pages (both or neither), and names refused for a bidirectional control (issue 37.4)."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hippodrome.server import create_app
from hippodrome.server.headers import CONTENT_SECURITY_POLICY
from tests.server.conftest import make_table

WEB = Path(__file__).resolve().parents[2] / "src" / "hippodrome" / "web"
ANSWERS = ["/", "/play/abc", "/call/abc", "/rules/turfmaster", "/puzzles/turfmaster", "/rules/nothing",
           "/static/play.js", "/static/style.css", "/api/games", "/api/tables", "/api/tables/none", "/i18n/fr.json"]


def policy(header: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in header.split(";") if part.strip())}


@pytest.mark.parametrize("path", ANSWERS)
def test_every_answer_carries_the_headers_and_hsts_only_over_tls(client, path, db):
    answer = client.get(path)
    csp = policy(answer.headers["content-security-policy"])
    assert csp["frame-ancestors"] == ["'none'"] and csp["object-src"] == ["'none'"]
    for directive in ("default-src", "script-src", "style-src", "connect-src"):
        assert csp[directive] == ["'self'"], directive   # no 'unsafe-inline', no 'unsafe-eval', no other site
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["x-frame-options"] == "DENY"
    assert "strict-transport-security" not in answer.headers
    with TestClient(client.app, base_url="https://hippodrome.example") as tls:
        assert tls.get(path).headers["strict-transport-security"].startswith("max-age=")


def test_a_refusal_before_the_app_carries_them_too(client):
    refused = client.post("/api/tables", json={}, headers={"Origin": "https://elsewhere.example"})
    assert refused.status_code == 403
    assert refused.headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_no_openapi_schema_without_its_docs_pages(client):
    assert [client.get(path).status_code for path in ("/openapi.json", "/docs", "/redoc")] == [404, 404, 404]


class InlineCode(HTMLParser):
    """What a page holds that the Content-Security-Policy would refuse to run or apply."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self._script_without_src = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        if tag == "script" and "src" not in names:
            self._script_without_src = True
        if tag == "style":
            self.found.append("<style>")
        self.found += [f"{tag} {name}=" for name in names if name.startswith("on") or name == "style"]
        self.found += [f"{tag} {name}=javascript:" for name, value in attrs
                       if value and value.strip().lower().startswith("javascript:")]

    def handle_data(self, data):
        if self._script_without_src and data.strip():
            self.found.append("inline <script>")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script_without_src = False


@pytest.mark.parametrize("page", sorted(p.name for p in WEB.glob("*.html")))
def test_the_pages_hold_no_inline_script_handler_or_style(page):
    parser = InlineCode()
    parser.feed((WEB / page).read_text())
    assert parser.found == []


def test_the_scripts_make_no_code_from_text_and_set_no_style_attribute():
    """'unsafe-eval' is not allowed: no eval, no Function made of a string; a style attribute
    set by script is refused too (web/net.js's el() sets styles through the CSSOM)."""
    for script in list(WEB.glob("*.js")) + list(WEB.glob("rules/*.js")):
        text = script.read_text()
        assert not re.search(r"\beval\(|new Function\(|setTimeout\(\s*[\"'`]|setAttribute\(\s*[\"']style", text), script


@pytest.mark.parametrize("name", ["Ana\u202eoB", "\u2067Bo\u2069", "\u200eAna", "A\u061cB"])
def test_a_name_holding_a_bidirectional_control_is_refused(client, name):
    answer = client.post("/api/tables", json={"game": "turfmaster-race", "setup": {"course": "oval", "horses": [
        {"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]}, "seats": [{"name": name}, {"name": "B"}]})
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_setup"
    assert client.get("/api/tables").json()["tables"] == []
    make_table(client, seats=[{"name": "\u05d0\u05e0\u05d4"}, {"name": "B"}], start=False)   # Hebrew letters pass
