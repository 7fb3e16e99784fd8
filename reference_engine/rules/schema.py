"""Checking data against the project's JSON Schemas, strictly, with every problem located.

One validator class serves every schema (variant and case files, records,
protocol messages): JSON Schema draft 2020-12, except that ``integer`` means a
whole number written as one (jsonschema counts ``6.0`` as an integer, and
``players: 6.0`` must not pass for six). :func:`schema_problems` turns each
violation in a YAML document into a :class:`~reference_engine.rules.errors.Problem`
at its line, with a message and a fix.

Each schema's ``$id`` is its address on the project's site (:data:`SITE` then
its path, ``spec/variant.schema.json``), so editors and other validators can
find it; here every validator resolves those addresses to the files in
:func:`~.datafiles.spec_dir` (:func:`schema_registry`) and never fetches anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from .datafiles import spec_dir
from .errors import Problem, ProblemCode
from .yamldoc import Document

if TYPE_CHECKING:
    import jsonschema
    import referencing

#: The project's site. A schema's ``$id`` is this address followed by the
#: schema's path in the repository: ``SITE + "spec/variant.schema.json"``.
SITE = "https://matador-reference.github.io/"

#: The project's JSON Schemas, the files of ``spec/``.
SCHEMA_FILES = (
    "variant.schema.json",
    "case.schema.json",
    "record.schema.json",
    "protocol.schema.json",
)


def schema_id(name: str) -> str:
    """The ``$id`` of the schema ``spec/NAME``: its address on the project's site."""
    return f"{SITE}spec/{name}"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The schema ``spec/NAME``, read from the local file."""
    import json  # (here: reading the shipped variants, as `matador list` does, needs no schema)

    return json.loads((spec_dir() / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def variant_schema() -> dict[str, Any]:
    """The variant JSON Schema."""
    return load_schema("variant.schema.json")


@cache
def schema_registry() -> referencing.Registry[Any]:
    """Every project schema under its ``$id``, from the local files; nothing is ever fetched.

    A ``$ref`` to any other address fails (``referencing.exceptions.Unresolvable``)
    instead of going to the network, as jsonschema's default registry would.
    Each is held without its ``$schema`` (all are draft 2020-12): a schema reached
    by ``$ref`` that names its dialect is validated by jsonschema's own class for
    it, where ``6.0`` is an integer, instead of :func:`strict_validator_class`.
    """
    import referencing.jsonschema
    from jsonschema_specifications import REGISTRY as METASCHEMAS  # type: ignore[import-untyped]

    def resource(name: str) -> referencing.Resource[Any]:
        schema = {key: value for key, value in load_schema(name).items() if key != "$schema"}
        return referencing.jsonschema.DRAFT202012.create_resource(schema)

    registry: referencing.Registry[Any] = referencing.Registry().with_resources(
        (schema_id(name), resource(name)) for name in SCHEMA_FILES
    )
    return METASCHEMAS.combine(registry)  # type: ignore[no-any-return]


def _is_integer(checker: object, instance: object) -> bool:
    """Only a whole number written as one: not ``6.0``, and not a boolean."""
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def strict_validator_class() -> type[jsonschema.protocols.Validator]:
    """Draft 2020-12, except that ``integer`` means an integer as written.

    jsonschema counts ``6.0`` as an integer, and ``players: 6.0`` should not pass
    for six. jsonschema is imported here, on first use, so that importing the
    engine or the command line does not load the validation stack.
    """
    import jsonschema

    draft = jsonschema.Draft202012Validator
    return jsonschema.validators.extend(  # type: ignore[no-any-return,no-untyped-call]
        draft, type_checker=draft.TYPE_CHECKER.redefine("integer", _is_integer)
    )


def strict_validator(schema: Mapping[str, Any]) -> jsonschema.protocols.Validator:
    """A :func:`strict_validator_class` validator of ``schema``; refs resolve locally."""
    return strict_validator_class()(schema, registry=schema_registry())


def __getattr__(name: str) -> Any:
    """``StrictValidator``: the validator class of :func:`strict_validator_class`, loaded lazily."""
    if name == "StrictValidator":
        return strict_validator_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def schema_problems(document: Document, schema: Mapping[str, Any]) -> list[Problem]:
    """Every JSON Schema violation in ``document``, located and explained."""
    validator = strict_validator(schema)
    problems = []
    errors = sorted(validator.iter_errors(document.data), key=lambda e: list(e.absolute_path))
    for error in errors:
        for leaf in _leaves(error):
            path = tuple(leaf.absolute_path)
            if leaf.validator == "additionalProperties" and isinstance(leaf.instance, dict):
                subschema = leaf.schema if isinstance(leaf.schema, dict) else {}
                allowed = sorted(subschema.get("properties", {}))
                for extra in sorted(set(leaf.instance) - set(allowed)):
                    problems.append(
                        document.problem(
                            ProblemCode.SCHEMA,
                            (*path, extra),
                            f"unknown field {extra!r}",
                            "allowed here: " + ", ".join(allowed),
                        )
                    )
                continue
            message, fix = _explain(leaf)
            problems.append(document.problem(ProblemCode.SCHEMA, path, message, fix))
    return problems


def _leaves(error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """For anyOf/oneOf failures, the most specific sub-errors; else the error itself."""
    if error.validator in ("anyOf", "oneOf") and error.context:
        deepest = max(len(sub.absolute_path) for sub in error.context)
        if deepest > len(error.absolute_path):
            return [sub for sub in error.context if len(sub.absolute_path) == deepest]
    return [error]


def _explain(error: jsonschema.ValidationError) -> tuple[str, str | None]:
    validator = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    if validator == "enum":
        return (
            f"{error.instance!r} is not an allowed value",
            "allowed: " + ", ".join(map(str, schema.get("enum", []))),
        )
    if validator == "required":
        return error.message, "add the missing field"
    if validator == "type":
        return error.message, f"give a value of type {error.validator_value}"
    if validator == "anyOf" and all(sub.validator == "required" for sub in error.context or []):
        return (
            "a rule needs a citation (cite) or the id of the gap that explains it",
            "add cite: [...], or gap: <the id of a gap recorded in this file>",
        )
    if validator in ("anyOf", "oneOf") and error.context:
        kinds = [sub for sub in error.context if sub.validator in ("type", "const")]
        others = [sub for sub in error.context if sub not in kinds]
        if len(others) == 1 and kinds:  # the value has the right type for one branch only
            return _explain(others[0])
        if kinds and not others:  # a value of a kind no branch takes: name every kind
            types = [str(sub.validator_value) for sub in kinds if sub.validator == "type"]
            words = [repr(sub.validator_value) for sub in kinds if sub.validator == "const"]
            return (
                f"{error.instance!r} is not "
                + ", nor ".join([f"of type {kind!r}" for kind in types] + words),
                "give a value " + ", or ".join([f"of type {kind}" for kind in types] + words),
            )
    if validator == "oneOf" and all(sub.validator == "required" for sub in error.context or []):
        return (
            "an alternative needs exactly one of: option, unplayable_because with lacks, "
            "not_offered_because",
            "name the option that plays it, or what the model lacks to play it, or why "
            "it is not offered",
        )
    return error.message, None
