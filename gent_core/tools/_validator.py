"""A small validator, with coercion, for the JSON Schema subset that tool arguments use.

Hand-written tool schemas (:class:`~gent_core.tools.BaseTool`) are checked with
:class:`SchemaValidator`, which reports problems worded for the model (like function tools)
and coerces what models commonly get wrong.

Enforced keywords:

* ``type`` (one name or a list), ``enum``, ``const``;
* objects: ``properties``, ``required``, ``additionalProperties`` (``false`` or a schema),
  ``minProperties``, ``maxProperties``; a missing property with a ``default`` is filled in;
* arrays: ``items``, ``prefixItems``, ``minItems``, ``maxItems``, ``uniqueItems``;
* strings: ``minLength``, ``maxLength``, ``pattern`` (searched, as JSON Schema says);
* property names: ``patternProperties`` (a property is checked against ``properties`` and
  every pattern its name matches; ``additionalProperties`` covers the names neither names);
* numbers: ``minimum``, ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum``,
  ``multipleOf``;
* combinators: ``anyOf``, ``oneOf`` (the first matching branch is taken; "exactly one" is
  not checked), ``allOf``; ``$ref`` to a JSON pointer inside the schema (``#/$defs/Item``).

Other keywords (``title``, ``description``, ``format``, ``examples``, ``not``,
``if``/``then``/``else``, ``dependentRequired``...) are ignored.

**Patterns are bounded.** Schemas come from tool authors and MCP servers, values from models,
so patterns match through :mod:`gent_core._regexes` (the ``regex`` engine, which releases the
GIL): the pattern checks of one :meth:`SchemaValidator.validate` call share one deadline,
:func:`~gent_core._regexes.pattern_timeout` (1 s by default). A check that runs out of it is a
problem of the value ("the pattern ... took longer than 1 s on this text; simplify it"), and
so is every later check of the same value: none is skipped silently.

Values that do not match are coerced when models commonly get them wrong (``"7"`` for an
integer, ``"true"`` for a boolean...): see :mod:`gent_core.tools._coercion`. An exact match
always wins over a coerced one (``anyOf: [integer, string]`` keeps ``"7"`` a string).
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from gent_core._regexes import (
    BoundedPattern,
    PatternError,
    PatternTimeoutError,
    compile_pattern,
    shared_deadline,
)
from gent_core._schema_refs import is_local_ref, resolve_pointer
from gent_core.tools._arguments import (
    TYPE_WORDS,
    ArgumentProblem,
    format_path,
    merge_alternatives,
    missing_problem,
    show_value,
    unknown_problem,
)
from gent_core.tools._coercion import coerce_json_type, is_number, json_equal
from gent_core.tools._schema import iter_subschema_items

__all__ = ["SchemaDefinitionError", "SchemaValidator"]

_MAX_DEPTH = 64
_MAX_REF_HOPS = 32

Path = tuple[str | int, ...]

_NUMBER_BOUNDS: tuple[tuple[str, str, Callable[[float, float], bool]], ...] = (
    ("minimum", ">=", operator.ge),
    ("exclusiveMinimum", ">", operator.gt),
    ("maximum", "<=", operator.le),
    ("exclusiveMaximum", "<", operator.lt),
)
_NUMBER_KEYWORDS = frozenset({keyword for keyword, _, _ in _NUMBER_BOUNDS} | {"multipleOf"})


class SchemaDefinitionError(ValueError):
    """A schema :class:`SchemaValidator` cannot use; ``path`` is where inside it.

    Attributes:
        path: The key path of the bad schema node (``("properties", "age")``; ``()`` for
            the root).
    """

    def __init__(self, message: str, path: tuple[str | int, ...]) -> None:
        super().__init__(message)
        self.path = path


def _check_type(
    kinds: str | list[str], value: Any, path: Path, problems: list[ArgumentProblem], coerce: bool
) -> tuple[Any, bool]:
    """Match ``value`` to one of the JSON types ``kinds``: exactly first, then by coercion."""
    names = [kinds] if isinstance(kinds, str) else kinds
    for allow in (False, True) if coerce else (False,):
        for kind in names:
            ok, result = coerce_json_type(kind, value, allow)
            if ok:
                return result, True
    expected = " or ".join(TYPE_WORDS[kind] for kind in names)
    problems.append(
        ArgumentProblem(format_path(path), f"expected {expected}, got {show_value(value)}")
    )
    return value, False


def _check_size(
    schema: dict[str, Any],
    size: int,
    suffix: str,
    unit: str,
    where: str,
    problems: list[ArgumentProblem],
) -> None:
    """Check ``min<suffix>``/``max<suffix>`` (``minLength``, ``maxItems``...) against ``size``."""
    low, high = schema.get(f"min{suffix}"), schema.get(f"max{suffix}")
    if is_number(low) and size < low:
        problems.append(ArgumentProblem(where, f"expected at least {low} {unit}, got {size}"))
    if is_number(high) and size > high:
        problems.append(ArgumentProblem(where, f"expected at most {high} {unit}, got {size}"))


class SchemaValidator:
    """Validates and coerces values against one JSON Schema (see the module docstring).

    Args:
        schema: The schema; checked once here.

    Raises:
        ValueError: The schema uses an unknown type, an unresolvable ``$ref``, an invalid
            ``pattern`` or a malformed ``required``/``properties``/``enum``.
    """

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema: dict[str, Any] = dict(schema)
        self._patterns: dict[str, BoundedPattern] = {}
        self._check_schema()

    # ------------------------------------------------------------------ schema checks

    def _nodes(self) -> Iterator[tuple[Path, dict[str, Any]]]:
        stack: list[tuple[Path, dict[str, Any]]] = [((), self.schema)]
        while stack:
            path, node = stack.pop()
            yield path, node
            stack.extend(((*path, *keys), sub) for keys, sub in iter_subschema_items(node))

    def _check_schema(self) -> None:
        paths: dict[int, Path] = {}
        for path, node in self._nodes():
            paths.setdefault(id(node), path)
            try:
                self._check_node(node)
            except ValueError as error:
                raise SchemaDefinitionError(str(error), path) from None
        self._check_ref_loops(paths)

    def _in_place(self, node: dict[str, Any]) -> list[dict[str, Any]]:
        """The schemas a value is checked against *as well as* ``node``, without descending
        into it: ``$ref``'s target and the ``allOf``/``anyOf``/``oneOf`` branches.
        """
        found: list[dict[str, Any]] = []
        if "$ref" in node:
            found.append(self._resolve(node["$ref"]))  # checked by _check_node already
        for key in ("allOf", "anyOf", "oneOf"):
            branches = node.get(key)
            if isinstance(branches, list):
                found += [branch for branch in branches if isinstance(branch, dict)]
        return found

    def _check_ref_loops(self, paths: Mapping[int, Path]) -> None:
        """Refuse a ``$ref`` loop: schemas that lead back to themselves through ``$ref`` and
        ``allOf``/``anyOf``/``oneOf`` without descending into the value (``properties``,
        ``items``...), so checking any value would never end. A schema that refers to itself
        *below* a property or an item (a tree) is fine.
        """
        done: set[int] = set()
        for start in [self.schema, *(node for _, node in self._nodes())]:
            if id(start) in done:
                continue
            # depth-first over in-place edges; ``on_path`` holds the current chain
            on_path: list[dict[str, Any]] = [start]
            stack = [iter(self._in_place(start))]
            while stack:
                following = next(stack[-1], None)
                if following is None:
                    stack.pop()
                    done.add(id(on_path.pop()))
                    continue
                if any(following is node for node in on_path):
                    where = paths.get(id(following), ())
                    refs = [node["$ref"] for node in on_path if isinstance(node.get("$ref"), str)]
                    chain = " -> ".join(repr(ref) for ref in refs) or "its allOf/anyOf/oneOf"
                    raise SchemaDefinitionError(
                        f"the schema's $ref pointers loop ({chain} leads back to where it "
                        "started without going into a property or an item), so no value could "
                        "ever be checked; end the chain at a schema with a type",
                        where,
                    )
                if id(following) not in done:
                    on_path.append(following)
                    stack.append(iter(self._in_place(following)))

    def _check_node(self, node: dict[str, Any]) -> None:
        """Check one schema node (``ValueError`` saying what is wrong and what is accepted)."""
        kinds = node.get("type", [])
        for kind in (
            [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else [kinds]
        ):
            if not isinstance(kind, str) or kind not in TYPE_WORDS:
                raise ValueError(
                    f"unknown JSON Schema type {kind!r} in {node!r}; accepted: "
                    + ", ".join(TYPE_WORDS)
                )
        ref = node.get("$ref")
        if ref is not None:
            self._resolve(ref)
        required = node.get("required", [])
        if not isinstance(required, list) or not all(isinstance(n, str) for n in required):
            raise ValueError(f"'required' must be a list of names, got {required!r}")
        if not isinstance(node.get("properties", {}), dict):
            raise ValueError(f"'properties' must be an object, got {node['properties']!r}")
        if not isinstance(node.get("enum", []), list):
            raise ValueError(f"'enum' must be a list, got {node['enum']!r}")
        pattern = node.get("pattern")
        if pattern is not None:
            self._compile(pattern, "'pattern'")
        named = node.get("patternProperties", {})
        if not isinstance(named, dict):
            raise ValueError(f"'patternProperties' must be an object, got {named!r}")
        for key in named:
            self._compile(key, "'patternProperties' key")

    def _compile(self, pattern: Any, what: str) -> None:
        if not isinstance(pattern, str):
            raise ValueError(f"invalid {what} {pattern!r}: a pattern is a string")
        try:
            self._patterns[pattern] = compile_pattern(pattern)
        except PatternError as error:
            raise ValueError(f"invalid {what} {pattern!r}: {error.problem}") from error

    def _resolve(self, ref: Any) -> dict[str, Any]:
        if not is_local_ref(ref):
            raise ValueError(f"only local $ref pointers ('#/...') are supported, got {ref!r}")
        try:
            node = resolve_pointer(self.schema, ref)
        except LookupError:
            raise ValueError(f"$ref {ref!r} points to nothing in the schema") from None
        if not isinstance(node, dict):
            raise ValueError(f"$ref {ref!r} does not point to a schema")
        return node

    # ------------------------------------------------------------------ validation

    def validate(self, value: Any) -> tuple[Any, list[ArgumentProblem]]:
        """Validate ``value``; return the coerced value and the problems (empty when valid)."""
        problems: list[ArgumentProblem] = []
        with shared_deadline():
            result = self._check(self.schema, value, (), problems, True, 0)
        return result, problems

    def _search(self, pattern: str, text: str) -> bool | str:
        """Whether ``pattern`` is found in ``text``, or the problem when it ran out of time."""
        try:
            return self._patterns[pattern].search(text) is not None
        except PatternTimeoutError as error:
            return error.message

    def _check(
        self,
        schema: Any,
        value: Any,
        path: Path,
        problems: list[ArgumentProblem],
        coerce: bool,
        hops: int,
    ) -> Any:
        if schema is True or schema == {}:
            return value
        if schema is False or not isinstance(schema, dict):
            problems.append(ArgumentProblem(format_path(path), "no value is accepted here"))
            return value
        if len(path) > _MAX_DEPTH:
            problems.append(ArgumentProblem(format_path(path), "the value is nested too deeply"))
            return value
        if "$ref" in schema:
            if hops >= _MAX_REF_HOPS:
                raise ValueError(f"the schema's $ref pointers loop ({schema['$ref']!r})")
            value = self._check(
                self._resolve(schema["$ref"]), value, path, problems, coerce, hops + 1
            )
        for branch in schema.get("allOf", ()):
            value = self._check(branch, value, path, problems, coerce, hops)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                value, ok = self._branches(schema[key], value, path, problems, coerce, hops)
                if not ok:
                    return value
        if "type" in schema:
            value, ok = _check_type(schema["type"], value, path, problems, coerce)
            if not ok:
                return value
        if "enum" in schema or "const" in schema:
            return self._check_choice(schema, value, path, problems)
        if isinstance(value, str):
            self._check_string(schema, value, path, problems)
        elif is_number(value):
            self._check_number(schema, value, path, problems)
        elif isinstance(value, list):
            value = self._check_array(schema, value, path, problems, coerce)
        elif isinstance(value, dict):
            value = self._check_object(schema, value, path, problems, coerce)
        return value

    def _branches(
        self,
        branches: list[Any],
        value: Any,
        path: Path,
        problems: list[ArgumentProblem],
        coerce: bool,
        hops: int,
    ) -> tuple[Any, bool]:
        """Take the first branch that accepts ``value`` exactly, else after coercion."""
        attempts: list[list[ArgumentProblem]] = []
        for allow in (False, True) if coerce else (False,):
            attempts.clear()  # report the problems of the last (most lenient) round
            for branch in branches:
                found: list[ArgumentProblem] = []
                result = self._check(branch, value, path, found, allow, hops)
                if not found:
                    return result, True
                attempts.append(found)
        here = format_path(path)
        deeper = [found for found in attempts if all(p.path != here for p in found)]
        if deeper:  # a branch of the right shape with bad content: report its problems
            problems.extend(deeper[0])
        else:
            problems.extend(merge_alternatives(p for found in attempts for p in found))
        return value, False

    def _check_choice(
        self, schema: dict[str, Any], value: Any, path: Path, problems: list[ArgumentProblem]
    ) -> Any:
        choices = list(schema.get("enum", [])) + ([schema["const"]] if "const" in schema else [])
        for choice in choices:
            if json_equal(choice, value):
                return choice
        if isinstance(value, str):  # "2" for an enum of numbers
            for choice in choices:
                if is_number(choice) and value.strip() == str(choice):
                    return choice
        listed = ", ".join(show_value(choice) for choice in choices)
        expected = f"one of {listed}" if len(choices) > 1 else listed
        problems.append(
            ArgumentProblem(format_path(path), f"expected {expected}, got {show_value(value)}")
        )
        return value

    def _check_string(
        self, schema: dict[str, Any], value: str, path: Path, problems: list[ArgumentProblem]
    ) -> None:
        where = format_path(path)
        _check_size(schema, len(value), "Length", "characters", where, problems)
        pattern = schema.get("pattern")
        if pattern is None:
            return
        found = self._search(pattern, value)
        if isinstance(found, str):
            problems.append(ArgumentProblem(where, found))
        elif not found:
            problems.append(
                ArgumentProblem(
                    where, f"expected a string matching {pattern}, got {show_value(value)}"
                )
            )

    @staticmethod
    def _check_number(
        schema: dict[str, Any], value: float, path: Path, problems: list[ArgumentProblem]
    ) -> None:
        if not schema.keys() & _NUMBER_KEYWORDS:
            return
        for keyword, sign, holds in _NUMBER_BOUNDS:
            bound = schema.get(keyword)
            if is_number(bound) and not holds(value, bound):
                problems.append(
                    ArgumentProblem(
                        format_path(path),
                        f"expected a number {sign} {bound}, got {show_value(value)}",
                    )
                )
        step = schema.get("multipleOf")
        if is_number(step) and step > 0 and (value / step) % 1 != 0:
            problems.append(
                ArgumentProblem(
                    format_path(path), f"expected a multiple of {step}, got {show_value(value)}"
                )
            )

    def _check_array(
        self,
        schema: dict[str, Any],
        value: list[Any],
        path: Path,
        problems: list[ArgumentProblem],
        coerce: bool,
    ) -> list[Any]:
        where = format_path(path)
        _check_size(schema, len(value), "Items", "items", where, problems)
        prefix = schema.get("prefixItems", [])
        items = schema.get("items", True)
        result = [
            self._check(
                prefix[i] if i < len(prefix) else items, item, (*path, i), problems, coerce, 0
            )
            for i, item in enumerate(value)
        ]
        if schema.get("uniqueItems") and any(
            json_equal(result[i], result[j]) for i in range(len(result)) for j in range(i)
        ):
            problems.append(ArgumentProblem(where, "expected unique items, got duplicates"))
        return result

    def _check_object(
        self,
        schema: dict[str, Any],
        value: dict[str, Any],
        path: Path,
        problems: list[ArgumentProblem],
        coerce: bool,
    ) -> dict[str, Any]:
        where = format_path(path)
        properties: dict[str, Any] = schema.get("properties", {})
        missing = [name for name in schema.get("required", []) if name not in value]
        if missing:
            problems.append(missing_problem(missing, where))
        extra = schema.get("additionalProperties", True)
        named: dict[str, Any] = schema.get("patternProperties", {})
        applying = {name: self._applying(properties, named, name, path, problems) for name in value}
        unknown = [name for name, subs in applying.items() if subs is None]
        if extra is False and unknown:
            accepted = [*properties, *(f"names matching {key}" for key in named)]
            problems.append(unknown_problem(unknown, accepted, where))
        result: dict[str, Any] = {}
        for name, item in value.items():
            for sub in applying[name] or [extra]:
                if sub is not False:  # False: already reported as unknown
                    item = self._check(sub, item, (*path, name), problems, coerce, 0)
            result[name] = item
        for name, sub in properties.items():
            if name not in result and isinstance(sub, dict) and "default" in sub:
                result[name] = copy.deepcopy(sub["default"])
        _check_size(schema, len(value), "Properties", "keys", where, problems)
        return result

    def _applying(
        self,
        properties: dict[str, Any],
        named: dict[str, Any],
        name: str,
        path: Path,
        problems: list[ArgumentProblem],
    ) -> list[Any] | None:
        """The schemas that check property ``name``: its ``properties`` entry and those of
        the ``patternProperties`` it matches; ``None`` when there are none (then
        ``additionalProperties`` applies).
        """
        subs = [properties[name]] if name in properties else []
        for key, sub in named.items():
            found = self._search(key, name)
            if isinstance(found, str):
                problems.append(ArgumentProblem(format_path((*path, name)), f"its name: {found}"))
                subs.append(False)
            elif found:
                subs.append(sub)
        return subs or None
