#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema, for the tests.

usage: json-schema.py SCHEMA DOC...     (DOC "-": the standard input)

Only the part of JSON Schema (draft 2020-12) that contrib/schema/ uses is
known here: type, properties, required, additionalProperties,
patternProperties, items, enum, const, minimum, pattern, anyOf and local
"$ref"s to "#/$defs/NAME"; the annotations ($schema, $id, title, description,
$comment) are read past.  A schema with any other keyword is refused, so
that no rule of a schema goes unchecked.  It is stricter than the
standard in one way: an "integer" is a number written without a fraction
or an exponent (the standard takes 1.0 too).

A document must also be strict JSON: UTF-8, no NaN or Infinity, no
member named twice in an object, no lone surrogate in a string.
Prints one line per error, "DOC: /json/pointer: what", and exits 1 when
there is any.
"""
import json
import re
import sys

ANNOTATIONS = {"$schema", "$id", "title", "description", "$comment", "$defs"}
RULES = {"type", "properties", "required", "additionalProperties", "patternProperties",
         "items", "enum", "const", "minimum", "pattern", "$ref", "anyOf"}
TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}


class SchemaError(Exception):
    pass


def strict_load(data, what):
    """The value of the JSON text data (bytes), or a ValueError saying why not."""
    def no_constant(name):
        raise ValueError("%s is not JSON" % name)

    def pairs(items):
        obj = {}
        for key, value in items:
            if key in obj:
                raise ValueError("member %r appears twice in an object" % key)
            obj[key] = value
        return obj

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError("%s is not UTF-8: %s" % (what, e))
    value = json.loads(text, parse_constant=no_constant, object_pairs_hook=pairs)
    check_surrogates(value)
    return value


def check_surrogates(value):
    strings = []
    if isinstance(value, str):
        strings = [value]
    elif isinstance(value, dict):
        strings = list(value)
        for v in value.values():
            check_surrogates(v)
    elif isinstance(value, list):
        for v in value:
            check_surrogates(v)
    for s in strings:
        if re.search("[\ud800-\udfff]", s):
            raise ValueError("a string holds a lone surrogate: %r" % s)


def check_schema(schema, where="#"):
    """Refuses a schema that uses a keyword not known here."""
    if isinstance(schema, bool):
        return
    if not isinstance(schema, dict):
        raise SchemaError("%s: a schema is an object or a boolean" % where)
    for key, value in schema.items():
        if key not in RULES and key not in ANNOTATIONS:
            raise SchemaError("%s: keyword %r is not supported by this validator" % (where, key))
        if key == "type":
            names = value if isinstance(value, list) else [value]
            for name in names:
                if name not in TYPES:
                    raise SchemaError("%s: unknown type %r" % (where, name))
        elif key in ("properties", "patternProperties", "$defs"):
            for name, sub in value.items():
                if key == "patternProperties":
                    re.compile(name)
                check_schema(sub, "%s/%s/%s" % (where, key, name))
        elif key in ("additionalProperties", "items"):
            check_schema(value, "%s/%s" % (where, key))
        elif key == "anyOf":
            if not isinstance(value, list) or not value:
                raise SchemaError("%s: anyOf is a list of schemas" % where)
            for i, sub in enumerate(value):
                check_schema(sub, "%s/anyOf/%d" % (where, i))
        elif key == "$ref" and not re.match(r"^#/\$defs/[^/]+$", value):
            raise SchemaError("%s: only references to #/$defs/NAME are supported" % where)


def type_of(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def same(a, b):
    """JSON equality: true is not 1, 1 is 1.0."""
    ta, tb = type_of(a), type_of(b)
    numbers = ("integer", "number")
    if ta in numbers and tb in numbers:
        return a == b
    if ta != tb:
        return False
    if ta == "array":
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if ta == "object":
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def pointer(path):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path) if path else "/"


def validate(value, schema, root, path, errors):
    if schema is True:
        return
    if schema is False:
        errors.append("%s: no value is allowed here" % pointer(path))
        return
    if "$ref" in schema:
        validate(value, root["$defs"][schema["$ref"].split("/")[-1]], root, path, errors)
    if "anyOf" in schema:
        failed = []
        for sub in schema["anyOf"]:
            sub_errors = []
            validate(value, sub, root, path, sub_errors)
            if not sub_errors:
                break
            failed.append("; ".join(sub_errors))
        else:
            errors.append("%s: none of anyOf holds: %s" % (pointer(path), " | ".join(failed)))
    if "type" in schema:
        allowed = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        actual = type_of(value)
        if actual not in allowed and not (actual == "integer" and "number" in allowed):
            errors.append("%s: %s where %s is wanted" % (pointer(path), actual, " or ".join(allowed)))
            return
    if "enum" in schema and not any(same(value, e) for e in schema["enum"]):
        errors.append("%s: %r is none of %r" % (pointer(path), value, schema["enum"]))
    if "const" in schema and not same(value, schema["const"]):
        errors.append("%s: %r is not %r" % (pointer(path), value, schema["const"]))
    if "minimum" in schema and type_of(value) in ("integer", "number") and value < schema["minimum"]:
        errors.append("%s: %r is less than %r" % (pointer(path), value, schema["minimum"]))
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        errors.append("%s: %r does not match %r" % (pointer(path), value, schema["pattern"]))
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                errors.append("%s: member %r is missing" % (pointer(path), name))
        props = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        for name, member in value.items():
            matched = False
            if name in props:
                matched = True
                validate(member, props[name], root, path + [name], errors)
            for pattern, sub in patterns.items():
                if re.search(pattern, name):
                    matched = True
                    validate(member, sub, root, path + [name], errors)
            if not matched and "additionalProperties" in schema:
                if schema["additionalProperties"] is False:
                    errors.append("%s: member %r is not in the schema" % (pointer(path), name))
                else:
                    validate(member, schema["additionalProperties"], root, path + [name], errors)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            validate(item, schema["items"], root, path + [i], errors)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: json-schema.py SCHEMA DOC...\n")
        return 2
    try:
        with open(argv[1], "rb") as f:
            schema = strict_load(f.read(), argv[1])
        check_schema(schema)
    except (ValueError, SchemaError) as e:
        sys.stderr.write("%s: bad schema: %s\n" % (argv[1], e))
        return 2
    bad = 0
    for name in argv[2:]:
        try:
            if name == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(name, "rb") as f:
                    data = f.read()
            doc = strict_load(data, name)
        except ValueError as e:
            print("%s: not strict JSON: %s" % (name, e))
            bad = 1
            continue
        errors = []
        validate(doc, schema, schema, [], errors)
        for e in errors:
            print("%s: %s" % (name, e))
        bad |= bool(errors)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
