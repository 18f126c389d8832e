#!/usr/bin/python3
"""Validate every SCENES_DIR/*.json against the scene JSON Schema.

Usage: python3 scripts/check_scenes_schema.py SCHEMA SCENES_DIR

"extends" chains are merged first the way simrun does it (objects key by key, the extending file
wins, arrays replaced whole), so a scene is checked as simrun sees it. Defaults are not filled:
the schema only has to accept what the files say. Prints one line per scene; exits 1 if the schema
itself is invalid, if any scene fails, or if there are no scenes.
Needs Debian's python3-jsonschema (Draft 2020-12 support).
"""
import json
import sys
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError


def merge(base, child):
    """child merged onto base: objects key by key (child wins), anything else replaced."""
    if not isinstance(base, dict) or not isinstance(child, dict):
        return child
    out = dict(base)
    for key, value in child.items():
        out[key] = merge(out[key], value) if key in out else value
    return out


def load_scene(path, chain=()):
    path = path.resolve()
    if path in chain:
        raise ValueError("extends cycle: " + " -> ".join(str(p) for p in chain + (path,)))
    with open(path, encoding="utf-8") as f:
        scene = json.load(f)
    if not isinstance(scene, dict):
        raise ValueError(f"{path}: expected a JSON object at the top level")
    base = scene.pop("extends", None)
    if base is None:
        return scene
    if not isinstance(base, str):
        raise ValueError(f"{path}: /extends: expected a string")
    return merge(load_scene(path.parent / base, chain + (path,)), scene)


def pointer(error):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in error.absolute_path)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    schema_path, scenes_dir = Path(argv[1]), Path(argv[2])
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as e:
        print(f"FAIL {schema_path}: invalid JSON Schema: {e.message}")
        return 1
    validator = Draft202012Validator(schema)

    scenes = sorted(scenes_dir.glob("*.json"))
    if not scenes:
        print(f"FAIL {scenes_dir}: no scenes (*.json) found")
        return 1
    failed = 0
    for path in scenes:
        try:
            scene = load_scene(path)
        except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
            print(f"FAIL {path.name}: {e}")
            failed += 1
            continue
        errors = sorted(validator.iter_errors(scene), key=lambda e: list(e.absolute_path))
        if errors:
            failed += 1
            print(f"FAIL {path.name}")
            for e in errors:
                print(f"     {pointer(e)}: {e.message}")
        else:
            print(f"ok   {path.name}")
    print(f"{len(scenes) - failed}/{len(scenes)} scenes match {schema_path.name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
