"""Every setting is bounded, and a refused value is one sentence naming the environment
variable the operator typed and what it accepts.

The first test goes through every field of `Settings`, read from the model itself: a
setting added later is covered without a line here — it fails until the new setting has
bounds (numbers: a least and a most; words: a list, a pattern or a validator). The others
run the real `salon` command on the values that used to lock everyone out or mislead.
"""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin

import pytest
from annotated_types import Ge, Gt, Le, Lt, MaxLen, MinLen
from pydantic import AliasChoices, ValidationError
from pydantic.fields import FieldInfo

from app.commands.setting_errors import settings_problem
from app.config import Settings
from tests.cli.one_sentence import assert_one_sentence
from tests.live import PROJECT_DIR, salon, salon_env

# What a field's validator refuses, for the fields whose type and bounds say nothing of it.
REFUSED_BY_VALIDATORS = {
    "data_dir": "",
    "database_url": "mysql://root@db.example.org/salon",
    "secret_key": "short",
    "allowed_origins": "cards.example.org/lobby",
    "trusted_proxies": "nginx",
    "redis_url": "http://127.0.0.1:6379/0",
    "metrics_token": "short",
    "metrics_networks": "localhost",
}


def variable(name: str, field: FieldInfo) -> str:
    alias = field.validation_alias
    return str(alias.choices[0]) if isinstance(alias, AliasChoices) else f"SALON_{name.upper()}"


def kinds(field: FieldInfo) -> list[Any]:
    if get_origin(field.annotation) in (Union, types.UnionType):
        return [kind for kind in get_args(field.annotation) if kind is not type(None)]
    return [field.annotation]


def numeric(field: FieldInfo) -> bool:
    return kinds(field) in ([int], [float])


def refused_values(name: str, field: FieldInfo) -> list[str]:
    """Values the field must refuse: past each bound, of the wrong kind, off its pattern."""
    values = [REFUSED_BY_VALIDATORS[name]] if name in REFUSED_BY_VALIDATORS else []
    step = 1 if kinds(field) == [int] else 0.5
    for bound in field.metadata:
        if isinstance(bound, Ge):
            values.append(str(bound.ge - step))  # type: ignore[operator]
        elif isinstance(bound, Gt):
            values.append(str(bound.gt))
        elif isinstance(bound, Le):
            values.append(str(bound.le + step))  # type: ignore[operator]
        elif isinstance(bound, Lt):
            values.append(str(bound.lt))
        elif isinstance(bound, MinLen) and bound.min_length > 0:
            values.append("x" * (bound.min_length - 1))
        elif isinstance(bound, MaxLen):
            values.append("x" * (bound.max_length + 1))
        elif getattr(bound, "pattern", None):
            values.append("not one of these!")
    kind = kinds(field)[0]
    if numeric(field):
        values.append("plenty")
    elif kind is bool:
        values.append("perhaps")
    elif get_origin(kind) is Literal:
        values.append("nonsense")
    return values


@pytest.fixture(autouse=True)
def no_inherited_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, field in Settings.model_fields.items():
        monkeypatch.delenv(variable(name, field), raising=False)
        monkeypatch.delenv(f"SALON_{name.upper()}", raising=False)


@pytest.mark.parametrize("name", list(Settings.model_fields))
def test_every_setting_refuses_what_it_cannot_take_naming_its_variable(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    field = Settings.model_fields[name]
    values = refused_values(name, field)
    assert values, f"{name} accepts anything: bound it in app/config.py"
    if numeric(field):
        bounds = {type(bound) for bound in field.metadata}
        assert bounds & {Ge, Gt} and bounds & {Le, Lt}, f"{name} needs a least and a most"
    said = variable(name, field)
    for value in values:
        monkeypatch.setenv(said, value)
        with pytest.raises(ValidationError) as refused:
            Settings()
        sentence = str(settings_problem(refused.value))
        assert said in sentence, (value, sentence)
        assert "\n" not in sentence and "The setting" not in sentence, sentence
        assert "accept" in sentence or "must" in sentence or "give" in sentence, sentence
    monkeypatch.delenv(said)
    assert Settings()  # the default is taken


@pytest.mark.parametrize(
    ("setting", "phrases"),
    [
        ({"SALON_SESSION_DAYS": "0"}, ("SALON_SESSION_DAYS=0 is refused", "from 1 to 365")),
        ({"SALON_DB_POOL_SIZE": "0"}, ("SALON_DB_POOL_SIZE=0 is refused", "from 1 to 1000")),
        ({"SALON_WS_MESSAGES_PER_WINDOW": "0"}, ("SALON_WS_MESSAGES_PER_WINDOW=0 is refused",)),
        ({"SALON_NEXT_HAND_SECONDS": "-3"}, ("SALON_NEXT_HAND_SECONDS=-3 is refused", "seconds")),
        ({"SALON_LOGIN_MAX_FAILURES": "0"}, ("SALON_LOGIN_MAX_FAILURES=0 is refused",)),
        (
            {"SALON_BOT_THINK_MIN_SECONDS": "3", "SALON_BOT_THINK_MAX_SECONDS": "1"},
            ("SALON_BOT_THINK_MIN_SECONDS (3) is more than SALON_BOT_THINK_MAX_SECONDS (1)",),
        ),
        ({"SALON_ENV": "prod"}, ("SALON_ENV=prod is refused", "development, production, test")),
        ({"SECRET_KEY": "short"}, ("SECRET_KEY is 5 characters long", "at least 32")),
        ({"REDIS_URL": "http://127.0.0.1:6379/0"}, ("REDIS_URL must start with redis://",)),
    ],
    ids=lambda case: next(iter(case)) if isinstance(case, dict) else None,
)
def test_salon_serve_refuses_a_setting_in_one_sentence(
    setting: dict[str, str], phrases: tuple[str, ...], tmp_path: Any
) -> None:
    sentence = assert_one_sentence(salon("serve", env=salon_env(tmp_path, **setting)), *phrases)
    assert "Redis is unreachable" not in sentence and "needs SECRET_KEY" not in sentence


def test_every_command_reading_the_settings_refuses_them_alike(tmp_path: Any) -> None:
    env = salon_env(tmp_path, SALON_SESSION_DAYS="0")
    for command in (("migrate",), ("create-admin", "ann"), ("demo",), ("audit",),
                    ("return-stranded", "seat:1:1")):  # fmt: skip
        assert_one_sentence(salon(*command, env=env), "SALON_SESSION_DAYS=0 is refused")


def test_every_setting_is_documented() -> None:
    documented = (PROJECT_DIR / "docs" / "configuration.md").read_text(encoding="utf-8")
    missing = [
        variable(name, field)
        for name, field in Settings.model_fields.items()
        if f"`{variable(name, field)}`" not in documented
    ]
    assert not missing, f"docs/configuration.md does not describe {missing}"
