"""A refused setting, said as the operator wrote it: the environment variable, the value
when it is not a secret, and what the variable accepts — read from the setting's own
declaration in app/config.py (its type, its bounds, its description), so a new setting is
explained without a word added here.

A validator that wrote its own sentence (they name their variable) is said as it wrote it.
"""

from __future__ import annotations

import re
import types
from typing import Any, Literal, Union, get_args, get_origin

from annotated_types import Ge, Gt, Le, Lt, MaxLen, MinLen
from pydantic import AliasChoices, ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import SettingsError

from app.commands.preflight import SetupProblem
from app.config import Settings

# Settings whose value may hold a password (URLs carry them too): never repeated back.
_SECRET = re.compile(r"key|token|password|secret|url")


def variable_of(name: str) -> str:
    """The environment variable an operator sets for the field `name`."""
    alias = Settings.model_fields[name].validation_alias
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    if isinstance(alias, str):
        return alias
    return f"{Settings.model_config.get('env_prefix', '')}{name}".upper()


def _field_of(location: str) -> str | None:
    """The field an error's location names: a field's name or one of its aliases."""
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        choices = alias.choices if isinstance(alias, AliasChoices) else [alias]
        if location == name or location in choices:
            return name
    return None


def _number(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _range(field: FieldInfo) -> str:
    """`from 1 to 365`, `more than 0 up to 120`: the field's bounds, in words."""
    least = most = ""
    for bound in field.metadata:
        if isinstance(bound, Ge):
            least = f"from {_number(bound.ge)}"
        elif isinstance(bound, Gt):
            least = f"more than {_number(bound.gt)}"
        elif isinstance(bound, Le):
            most = f"up to {_number(bound.le)}"
        elif isinstance(bound, Lt):
            most = f"below {_number(bound.lt)}"
    if least.startswith("from") and most.startswith("up to"):
        most = most.replace("up to", "to", 1)
    return " ".join(part for part in (least, most) if part)


_UNITS = {"_seconds": " of seconds", "_days": " of days"}


def _kinds(annotation: Any) -> list[Any]:
    """The types a field's annotation allows (an Optional's None set aside)."""
    if get_origin(annotation) in (Union, types.UnionType):
        return [kind for kind in get_args(annotation) if kind is not type(None)]
    return [annotation]


def accepted(name: str) -> str:
    """What the field `name` accepts, in words."""
    field = Settings.model_fields[name]
    if field.description:
        return field.description
    kinds = _kinds(field.annotation)
    unit = (
        " of seconds" if name.endswith("_seconds") else " of days" if name.endswith("_days") else ""
    )
    if get_origin(kinds[0]) is Literal:
        return "one of " + ", ".join(str(choice) for choice in get_args(kinds[0]))
    if kinds == [bool]:
        return "true or false"
    if kinds == [int]:
        return f"a whole number{unit} {_range(field)}".strip()
    if kinds == [float]:
        return f"a number{unit} {_range(field)}".strip()
    lengths = [bound for bound in field.metadata if isinstance(bound, MinLen | MaxLen)]
    if kinds == [str] and lengths:
        least = next((b.min_length for b in lengths if isinstance(b, MinLen)), 0)
        most = next((b.max_length for b in lengths if isinstance(b, MaxLen)), None)
        return (
            f"text of {least} to {most} characters"
            if most
            else f"text of at least {least} characters"
        )
    return "a value described in docs/configuration.md"


def settings_problem(error: ValidationError) -> SetupProblem:
    """The first refused setting, in one sentence."""
    first = error.errors()[0]
    cause = first.get("ctx", {}).get("error")
    if isinstance(cause, ValueError):
        sentence = str(cause)
        return SetupProblem(sentence if sentence.endswith(".") else sentence + ".")
    location = str(first["loc"][0]) if first["loc"] else ""
    name = _field_of(location)
    if name is None:
        return SetupProblem(f"The setting {location or '?'} is invalid: {first['msg']}.")
    said = variable_of(name)
    if not _SECRET.search(name):
        said += f"={first.get('input')}"
    return SetupProblem(f"{said} is refused: it accepts {accepted(name)}.")


def unreadable_setting(error: SettingsError) -> SetupProblem:
    """A setting pydantic-settings could not even decode (a list or a mapping that is not
    JSON), named by its variable."""
    found = re.search(r'field "(\w+)"', str(error))
    name = found.group(1) if found else None
    if name is None or name not in Settings.model_fields:
        return SetupProblem(f"A setting could not be read: {error}.")
    return SetupProblem(
        f"{variable_of(name)} could not be read ({error.__cause__ or error}): it accepts "
        f"{accepted(name)}."
    )
