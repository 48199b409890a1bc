"""Parsing client frames: every bad frame gets a stable code, nothing else gets through."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.db.models import TableStatus
from app.ws.protocol import (
    MAX_FRAME_BYTES,
    ActionIn,
    ChatIn,
    EntropyIn,
    ErrorOut,
    EventOut,
    PingIn,
    ProtocolError,
    ResyncIn,
    SnapshotOut,
    event_frame,
    parse_client_frame,
    public_part,
    snapshot_frame,
    spliced_snapshot_frame,
)


def test_each_client_message_parses() -> None:
    action = parse_client_frame(
        '{"type":"action","id":"a-1","action":"card","card":"AS","version":7}'
    )
    assert action == ActionIn(type="action", id="a-1", action="card", card="AS", version=7)
    discard = parse_client_frame(b'{"type":"action","id":"a2","action":"discard","cards":[]}')
    assert isinstance(discard, ActionIn) and discard.cards == []
    assert parse_client_frame('{"type":"chat","text":"bonsoir"}') == ChatIn(
        type="chat", text="bonsoir"
    )
    assert parse_client_frame('{"type":"ping"}') == PingIn(type="ping")
    assert parse_client_frame('{"type":"resync","version":12}') == ResyncIn(
        type="resync", version=12
    )
    value = "0123456789abcdef" * 4
    assert parse_client_frame(f'{{"type":"entropy","value":"{value}"}}') == EntropyIn(
        type="entropy", value=value
    )


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "malformed_json"),
        ("[1,2]", "invalid_message"),
        ('{"no":"type"}', "invalid_message"),
        ('{"type":"shout"}', "invalid_message"),
        ('{"type":"action","id":"x","action":"card","card":"ZZ"}', "invalid_message"),
        ('{"type":"action","id":"x","action":"raise","amount":-1}', "invalid_message"),
        ('{"type":"action","id":"x","action":"raise","amount":"5"}', "invalid_message"),
        ('{"type":"action","action":"pass"}', "invalid_message"),
        ('{"type":"action","id":"x","action":"pass","extra":1}', "invalid_message"),
        ('{"type":"action","id":"has space","action":"pass"}', "invalid_message"),
        ('{"type":"chat","text":""}', "invalid_message"),
        ('{"type":"chat","text":"two\\nlines"}', "invalid_message"),
        ('{"type":"chat","text":"' + "x" * 301 + '"}', "invalid_message"),
        ('{"type":"resync","version":-1}', "invalid_message"),
        ('{"type":"entropy"}', "invalid_message"),
        ('{"type":"entropy","value":"' + "ab" * 31 + '"}', "invalid_message"),
        ('{"type":"entropy","value":"' + "ab" * 33 + '"}', "invalid_message"),
        ('{"type":"entropy","value":"' + "AB" * 32 + '"}', "invalid_message"),
        ('{"type":"entropy","value":"' + "zz" * 32 + '"}', "invalid_message"),
        ('{"type":"entropy","value":' + "1" * 64 + "}", "invalid_message"),
        ('{"type":"entropy","value":"' + "ab" * 32 + '","seat":1}', "invalid_message"),
        ('{"type":"resync","version":99999999999999999999999999}', "invalid_message"),
        ('{"type":"action","id":"x","action":"raise","amount":1e400}', "malformed_json"),
        ('{"type":"chat","text":"' + "x" * MAX_FRAME_BYTES + '"}', "frame_too_large"),
    ],
)
def test_bad_frames_are_refused_with_a_code(frame: str, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_frame(frame)
    assert caught.value.code == code
    assert caught.value.message


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=200),
        json_values.map(orjson.dumps),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["action", "chat", "ping", "resync"])},
            optional={
                "id": json_values,
                "action": json_values,
                "text": json_values,
                "version": json_values,
                "amount": json_values,
                "card": json_values,
            },
        ).map(orjson.dumps),
    )
)
def test_any_frame_parses_or_is_refused_cleanly(frame: bytes) -> None:
    try:
        message = parse_client_frame(frame)
    except ProtocolError as error:
        assert error.code in {"malformed_json", "invalid_message", "frame_too_large"}
    else:
        assert isinstance(message, ActionIn | ChatIn | PingIn | ResyncIn)


def test_server_frames_are_compact_json() -> None:
    assert orjson.loads(SnapshotOut(version=3, view={"pot": 5}).frame()) == {
        "type": "snapshot",
        "version": 3,
        "view": {"pot": 5},
    }
    error = orjson.loads(ErrorOut(code="not_your_turn", message="Wait.", ref="a-1").frame())
    assert error == {"type": "error", "code": "not_your_turn", "message": "Wait.", "ref": "a-1"}


def test_the_fast_frames_are_the_typed_frames() -> None:
    """Snapshots and events are built straight from their fields on the hot path: byte for
    byte what the typed messages would send, seat-keyed maps and nulls included."""
    view = {
        "table": {"status": TableStatus.OPEN, "rules": {}},
        "you": {"seat": None},
        "hand": {"bids": {0: 3, 2: None}, "trick": [("AS", 1)], "to_act": [2]},
        "last_result": None,
    }
    assert snapshot_frame(7, view) == SnapshotOut(version=7, view=view).frame()
    data = {"seat": 1, "card": "AS", "amount": None}
    assert event_frame(8, "played", data) == EventOut(version=8, kind="played", data=data).frame()


def test_a_spliced_snapshot_is_the_plain_snapshot() -> None:
    """A broadcast encodes a view's public part once and adds each seat's own part to it:
    the frame parses to exactly what `snapshot_frame` of the whole view sends."""
    public = {
        "table": {"id": 3, "status": TableStatus.OPEN, "rules": {"ante": 1}, "name": 'a "b"'},
        "seats": [{"seat": 0, "name": "Zoë", "stack": 7, "connected": True}],
        "pot": 4,
        "turn_ends_in": 12.5,
        "next_hand_in": None,
        "next_hand": None,
        "last_result": {"names": {"u1": "Un"}, "stacks": {0: 3}},
    }
    for private in (
        {"you": {"seat": 2}, "hand": {"hand": ["AS", "KD"], "bids": {0: 3, 2: None}}},
        {"you": {"seat": None}, "hand": None},
    ):
        view = {**public, **private}
        spliced = spliced_snapshot_frame(41, public_part(public), private)
        assert orjson.loads(spliced) == orjson.loads(snapshot_frame(41, view))
    # An empty part on either side still makes one valid object.
    assert orjson.loads(spliced_snapshot_frame(1, public_part({}), {"you": None})) == {
        "type": "snapshot",
        "version": 1,
        "view": {"you": None},
    }
    assert orjson.loads(spliced_snapshot_frame(2, public_part({"pot": 1}), {}))["view"] == {
        "pot": 1
    }
