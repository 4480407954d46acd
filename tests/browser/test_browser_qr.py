"""The pages' QR codes (web/qr.js; issue 34, point 5: the other phones join a table by pointing a
camera at the host's screen): every module of the symbols the page makes equals the symbol the
segno library makes for the same text, version and mask (byte mode, level M), for links of every
length a table's links have; the page picks segno's smallest version; the lobby shows a friend's
link as a code, and the race caller's host its spectators' link."""

import pytest
import segno

from tests.browser.conftest import create, screenshot

pytestmark = pytest.mark.browser

TEXTS = ["http://192.168.1.20:8000/play/3fa9c2#seat=Xq3-1bZcT0pKx8m2Qa9LwE7d",
         "https://hippodrome.example/call/0123456789abcdef", "A", "Ready Set Bet · ¡Salen al galope!",
         "https://tables.example.org:8443/play/" + "f" * 32 + "#seat=" + "k" * 48 + "&host=" + "h" * 48]


@pytest.fixture(autouse=True)
def segno_by_the_standard(monkeypatch):
    """segno 1.6.6 adds a whole byte of zero bits when the data already ends on a byte boundary
    after the terminator (always so in byte mode), where ISO/IEC 18004 7.4.10 adds none and goes
    on with the pad codewords: both read the same, but the modules differ. The reference is made
    by the standard."""
    from segno import encoder

    def padding(buff, version, length):
        buff.extend([0] * ((8 - length % 8) % 8))

    monkeypatch.setattr(encoder, "write_padding_bits", padding)


def segno_matrix(text, version, mask):
    code = segno.make(text, error="m", version=version, mask=mask, boost_error=False, mode="byte",
                      encoding="utf-8" if not text.isascii() else None)
    return [[bool(module) for module in row] for row in code.matrix]


def test_the_page_makes_the_same_symbols_as_segno(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/")
    made = page.evaluate("""async (texts) => {
      const { qrMatrix, qrVersion } = await import('/static/qr.js');
      return texts.map((text) => {
        const length = new TextEncoder().encode(text).length, version = qrVersion(length);
        return { version, masks: [0, 1, 2, 3, 4, 5, 6, 7].map((mask) => qrMatrix(text, { version, mask })),
                 auto: qrMatrix(text) };
      });
    }""", TEXTS)
    for text, symbol in zip(TEXTS, made):
        best = segno.make(text, error="m", boost_error=False, mode="byte", micro=False,
                          encoding="utf-8" if not text.isascii() else None)
        assert symbol["version"] == best.version, text
        for mask, matrix in enumerate(symbol["masks"]):
            assert matrix == segno_matrix(text, best.version, mask), (text, mask)
        # the page picks its mask by the penalty with the format bits in place, segno before they
        # are: they may choose differently, and every mask makes a symbol any reader reads
        assert symbol["auto"] in symbol["masks"]
    page.close()


def dark_modules(page, selector):
    """The dark modules a code on the page draws (its path's unit squares), and the size."""
    return page.eval_on_selector(selector, """(svg) => ({ dark: (svg.querySelector('path').getAttribute('d').match(/M/g) || []).length,
                                                         label: svg.getAttribute('aria-label') })""")


def expected_dark(page, link):
    return page.evaluate("""async (link) => { const { qrMatrix } = await import('/static/qr.js');
      return qrMatrix(link).flat().filter(Boolean).length; }""", link)


def test_the_lobby_shows_a_friends_link_and_the_caller_its_spectators_link_as_codes(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value=readysetbet]", state="attached")
    page.select_option("#game", "readysetbet")
    page.wait_for_function("() => document.querySelectorAll('.seat-row').length >= 2")
    page.click("#create-button")
    page.wait_for_selector("#created .link-row .qr-button")
    row = page.locator("#created .link-row:has(code)").first
    link = row.locator("code").text_content()
    row.locator(".qr-button").click()
    row.locator(".qr-box svg.qr").wait_for()
    assert row.locator(".qr-box").get_attribute("data-link") == link
    shown = dark_modules(page, "#created .link-row .qr-box svg")
    assert shown["dark"] == expected_dark(page, link) > 100 and shown["label"].startswith("QR code of the link of ")
    screenshot(page, "lobby-phone-qr")
    row.locator(".qr-button").click()   # and hidden again
    page.wait_for_selector("#created .link-row .qr-box", state="detached")
    page.close()
    table = create(server, {"game": "readysetbet-box", "setup": {"races": 1}, "seats": [], "pace": 30}, start=False)
    host = browser.new_page(viewport={"width": 390, "height": 844})
    host.goto(server.url + table["host_link"])
    host.wait_for_selector("#track .horse")
    host.click("#host-controls .qr-button")
    host.wait_for_selector("#host-controls .qr-box svg.qr")
    spectators = server.url + f"/call/{table['id']}"
    assert host.get_attribute("#host-controls .qr-box", "data-link") == spectators
    assert dark_modules(host, "#host-controls .qr-box svg")["dark"] == expected_dark(host, spectators)
    screenshot(host, "caller-phone-qr")
    watcher = browser.new_page()
    watcher.goto(server.url + table["spectator_link"])
    watcher.wait_for_selector("#track .horse")
    assert watcher.locator(".qr-button").count() == 0, "the spectators have no code to show"
    host.close()
    watcher.close()
