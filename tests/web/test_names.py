"""Display names: visible text under Unicode's rules, and no two alike at one table (issue 33)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.web.names import (
    NAME_LIMIT,
    clean_name,
    look_alike,
    name_problem,
    normal_form,
    skeleton,
)
from tests.web.conftest import create, token
from tests.web.test_lobby import open_game, person, proof

# The attack's names, each shown as a blank or as someone else's name: what each is.
INVISIBLE_NAMES = {
    "\u3164": "Hangul filler (a letter that draws nothing)",
    "\u2800": "braille blank",
    "Ann\u200b": "a zero-width space after a real name",
    "Ann\U000e0041\U000e0042": "tag characters",
    "Ann\u206e": "a deprecated format character",
    "\u115f\u1160": "Hangul choseong and jungseong fillers",
    "\uffa0": "half-width Hangul filler",
    "\u0301\u0308": "combining marks on nothing",
    "Ann\u2028": "a line separator",
    "Ann\u2029Bob": "a paragraph separator",
    "Ann\ue000": "a private-use character",
    "\u034fAnn": "the combining grapheme joiner",
    "Ann\ufeff": "a zero-width no-break space",
}


@pytest.mark.parametrize("name", list(INVISIBLE_NAMES))
def test_every_way_in_refuses_invisible_names_and_says_what_is_allowed(
    client: TestClient, name: str
) -> None:
    refused = client.post("/api/people", json={"name": name})
    assert refused.status_code == 400, (INVISIBLE_NAMES[name], refused.text)
    body = refused.json()
    assert body["error"] == "bad_name"
    assert "visible" in body["detail"], body["detail"]
    assert "letters, digits" in body["detail"], "the refusal says what a name may be"
    created = create(client, "bones", seats=[{"kind": "human"}, {"kind": "human"}])
    renamed = client.post(
        f"/api/games/{created['id']}/session",
        json={"token": token(created, 0), "do": "name", "name": name},
    )
    assert renamed.status_code == 400 and renamed.json()["error"] == "bad_name"
    made = client.post("/api/games", json={"game": "bones", "seats": [{"name": name}, {}]})
    assert made.status_code == 400 and made.json()["error"] == "bad_name"
    form = client.post("/new/bones", data={"seat0": "human", "name0": name})
    assert form.status_code == 400 and "visible" in form.text


@pytest.mark.parametrize(
    ("given_name", "kept"),
    [
        ("Zoë 李", "Zoë 李"),
        ("Ｊｏｓé", "José"),  # full-width letters are the plain ones
        ("  Ann \t Lee\n", "Ann Lee"),
        ("\u2764\ufe0f Ann", "\u2764\ufe0f Ann"),  # an emoji's look picked by its selector
        ("أحمد", "أحمد"),
        ("देवनागरी", "देवनागरी"),  # letters with their marks
        ("O'Brien-Smith", "O'Brien-Smith"),
    ],
)
def test_names_of_real_people_are_kept_in_their_normal_form(
    client: TestClient, given_name: str, kept: str
) -> None:
    made = client.post("/api/people", json={"name": given_name})
    assert made.status_code == 201, made.text
    assert made.json()["name"] == kept


def test_two_names_that_look_alike_cannot_sit_at_one_table(client: TestClient) -> None:
    # "Ann" in Latin letters, and with a Cyrillic "А" (U+0410): one look on the page
    latin, cyrillic = "Ann", "\u0410nn"
    both = client.post(
        "/api/games", json={"game": "bones", "seats": [{"name": latin}, {"name": cyrillic}]}
    )
    assert both.status_code == 409 and both.json()["error"] == "name_taken", both.text
    assert "'Ann'" in both.json()["detail"] and "tell apart" in both.json()["detail"]
    created = create(client, "bones", seats=[{"name": latin}, {"kind": "human"}])
    for look_alike_name in (cyrillic, "Ａnn", "Ann\u200b"):
        renamed = client.post(
            f"/api/games/{created['id']}/session",
            json={"token": token(created, 1), "do": "name", "name": look_alike_name},
        )
        assert renamed.status_code in (400, 409), renamed.text
    players = client.get(f"/api/games/{created['id']}").json()["players"]
    assert [p["person_name"] for p in players] == ["Ann", None], "nothing changed"
    # a seat may keep its own name, and names that differ sit side by side
    for seat, name in ((0, "Ann"), (1, "Anna")):
        asked = client.post(
            f"/api/games/{created['id']}/session",
            json={"token": token(created, seat), "do": "name", "name": name},
        )
        assert asked.status_code == 200, asked.text
    # joining an open game: the lobby shows who sits there
    ann = person(client, latin)
    host = open_game(client, "bones", ann)
    other_ann = person(client, "\u0391nn")  # a Greek capital alpha
    joined = client.post(f"/api/open/{host['id']}/join", json={"person": proof(other_ann)})
    assert joined.status_code == 409 and joined.json()["error"] == "name_taken"
    assert (
        client.post(
            f"/api/open/{host['id']}/join", json={"person": proof(person(client, "Ben"))}
        ).status_code
        == 200
    )


def test_the_skeleton_follows_unicode_tr39() -> None:
    assert skeleton("I1l") == skeleton("lll")
    assert skeleton("m") == skeleton("rn")
    assert skeleton("\u0430") == "a"  # Cyrillic small a
    assert skeleton("paypal") != skeleton("paypa1x")
    assert look_alike("Bob", ["Ann", "B\u043eb"]) == "B\u043eb"
    assert look_alike("Bob", ["Ann", "Bobby", None]) is None


names = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=3 * NAME_LIMIT
)


@settings(max_examples=300, deadline=None)
@given(names)
def test_a_name_is_kept_whole_or_refused_with_a_reason(name: str) -> None:
    """Whatever is typed, a kept name is normal, short, visible text and stays itself when
    given again; a refused one has a reason."""
    kept = clean_name(name)
    text = normal_form(name)
    if kept is None:
        assert text == "" or name_problem(text)
        return
    assert kept == text and 1 <= len(kept) <= NAME_LIMIT
    assert clean_name(kept) == kept, "normal form is stable"
    assert kept == kept.strip() and "  " not in kept
