"""The package's shape: small modules, a documented public API, a light CLI."""

import ast
import io
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "poimkit"
#: the most code lines of a module (docstrings, comments and blank lines aside):
#: one idea stays in one file, however much prose explains it
MAX_CODE_LINES = 600
HEAVY = ("numba", "sklearn", "scipy", "Bio", "matplotlib", "memelite", "dask")


def _modules():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50, f"the package was not found at {PACKAGE}"
    return modules


def _public_modules():
    """Modules whose path has no private part (``_x.py``, ``_x/``)."""
    for path in _modules():
        parts = path.relative_to(PACKAGE).parts
        if not any(p.startswith("_") and p != "__init__.py" for p in parts):
            yield path


def _public_callables(tree: ast.Module):
    """(qualified name, node) of the public functions and methods with arguments."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                    yield f"{node.name}.{item.name}", item


def _arguments(node: ast.FunctionDef) -> list[ast.arg]:
    args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    return [a for a in args if a.arg not in ("self", "cls")]


def _docstring_lines(tree: ast.Module) -> set[int]:
    """The lines of every docstring (module, class, function)."""
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, kinds) and node.body:
            first = node.body[0]
            value = getattr(first, "value", None)
            if isinstance(first, ast.Expr) and isinstance(value, ast.Constant):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def code_lines(text: str) -> set[int]:
    """The lines of ``text`` that hold code: no docstring, comment or blank line."""
    prose = _docstring_lines(ast.parse(text))
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT}
    skip |= {tokenize.DEDENT, tokenize.ENDMARKER}
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in skip:
            lines.update(range(token.start[0], token.end[0] + 1))
    return lines - prose


def test_code_lines_count_code_only():
    text = '''"""A module.

    Prose.
    """

    # a comment
    def f(x):
        """Its docstring."""
        return (x +
                1)
    '''
    assert sorted(code_lines(text.replace("\n    ", "\n"))) == [7, 9, 10]


def test_no_module_over_the_code_line_cap():
    long = {
        str(path.relative_to(PACKAGE)): n
        for path in _modules()
        if (n := len(code_lines(path.read_text()))) > MAX_CODE_LINES
    }
    assert not long, f"modules over {MAX_CODE_LINES} code lines: {long}"


@pytest.mark.parametrize("folder", ["benchmarks", "validation"])
def test_no_script_over_the_code_line_cap(folder):
    """The benchmarks and the papers' validation keep the package's cap too."""
    root = PACKAGE.parent / folder
    scripts = sorted(root.rglob("*.py"))
    assert len(scripts) > 5, f"no scripts found in {root}"
    long = {
        str(path.relative_to(root)): n
        for path in scripts
        if (n := len(code_lines(path.read_text()))) > MAX_CODE_LINES
    }
    assert not long, f"{folder} files over {MAX_CODE_LINES} code lines: {long}"


def _documented_methods() -> dict[str, tuple[set[str], list[str]]]:
    """Per class of the package: its methods with a Parameters section, its bases."""
    found = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                documented = {
                    item.name
                    for item in node.body
                    if isinstance(item, ast.FunctionDef)
                    and _has_parameters(ast.get_docstring(item) or "")
                }
                bases = [getattr(b, "id", getattr(b, "attr", "")) for b in node.bases]
                found[node.name] = (documented, bases)
    return found


def _has_parameters(doc: str) -> bool:
    """A Parameters section, written or filled by `fill_doc` (``%(parameters)s``)."""
    return "Parameters" in doc or "%(parameters)s" in doc


def _inherits_docs(qualified: str, classes: dict) -> bool:
    """Whether ``Class.method`` overrides a method a base class documents."""
    if "." not in qualified:
        return False
    owner, method = qualified.split(".")
    bases = list(classes.get(owner, (set(), []))[1])
    while bases:
        documented, more = classes.get(bases.pop(), (set(), []))
        if method in documented:
            return True
        bases += more
    return False


def test_an_override_inherits_its_bases_parameters_section():
    classes = {"Base": ({"run"}, []), "Child": (set(), ["Base"]), "Other": (set(), [])}
    assert _inherits_docs("Child.run", classes)
    assert not _inherits_docs("Other.run", classes)
    assert not _inherits_docs("Child.stop", classes)


def test_public_functions_have_parameters_sections_and_type_hints():
    """A Parameters section each; an override says what differs, its base the rest."""
    undocumented, unhinted = [], []
    classes = _documented_methods()
    for path in _public_modules():
        tree = ast.parse(path.read_text())
        where = path.relative_to(PACKAGE)
        for name, node in _public_callables(tree):
            args = _arguments(node)
            if not args:
                continue
            documented = _has_parameters(ast.get_docstring(node) or "")
            if not documented and not _inherits_docs(name, classes):
                undocumented.append(f"{where}:{name}")
            if any(a.annotation is None for a in args):
                unhinted.append(f"{where}:{name}")
    assert not undocumented, f"no numpydoc Parameters section: {undocumented}"
    assert not unhinted, f"arguments without type hints: {unhinted}"


def test_public_classes_document_their_parameters():
    missing = []
    for path in _public_modules():
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.ClassDef) or node.name.startswith("_"):
                continue
            init = next(
                (n for n in node.body if getattr(n, "name", None) == "__init__"), None
            )
            if init is not None and _arguments(init):
                doc = ast.get_docstring(node) or ""
                if "Parameters" not in doc and "Attributes" not in doc:
                    missing.append(f"{path.relative_to(PACKAGE)}:{node.name}")
    assert not missing, f"classes without a Parameters section: {missing}"


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["run", "--help"]])
def test_cli_starts_without_heavy_libraries(argv):
    """``poimkit --version`` and ``--help`` import numpy at most."""
    code = (
        "import sys\n"
        "from poimkit.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"heavy = sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert "HEAVY []" in done.stderr, done.stderr[-500:]


def test_every_module_imports_without_docstrings():
    """``python -OO`` (docstrings stripped) imports every module."""
    code = (
        "import importlib, pkgutil, poimkit\n"
        "for m in pkgutil.walk_packages(poimkit.__path__, 'poimkit.'):\n"
        "    importlib.import_module(m.name)\n"
        "assert poimkit.__doc__ is None\n"
    )
    done = subprocess.run(
        [sys.executable, "-OO", "-c", code], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-800:]


def test_architecture_page_names_every_module():
    """The Layout of docs/contributing.md has one row per module, and no other."""
    import re

    text = (PACKAGE.parent / "docs" / "contributing.md").read_text()
    layout = text[text.index("## Layout") :]
    layout = layout[: layout.find("\n## ", 1)] if "\n## " in layout[1:] else layout
    named = re.findall(r"^\| `([\w/]+\.py)` \|", layout, re.MULTILINE)
    modules = {
        path.relative_to(PACKAGE).as_posix()
        for path in _modules()
        if path.name != "__init__.py"
    }
    assert len(named) == len(set(named)), "a module is named twice"
    assert set(named) == modules, (
        f"not in the Layout of docs/contributing.md: {sorted(modules - set(named))}; "
        f"named there but missing: {sorted(set(named) - modules)}"
    )


def test_no_module_imports_another_modules_private_names():
    """``from x import _name`` only for private modules (numba twins), never names."""
    offenders = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = path.parent
            for _ in range(max(node.level - 1, 0)):
                base = base.parent
            if not node.level:
                base = PACKAGE.parent
            for part in (node.module or "").split(".") if node.module else []:
                base = base / part
            for alias in node.names:
                name = alias.name
                if not name.startswith("_") or name.startswith("__"):
                    continue
                if (base / f"{name}.py").exists() or (base / name).is_dir():
                    continue  # a private module, e.g. a numba twin
                where = path.relative_to(PACKAGE).as_posix()
                offenders.append(f"{where}:{node.lineno} imports {name}")
    assert not offenders, offenders


def _private_poimkit_imports(path: Path):
    """(line, text) of each import of a private poimkit name or module."""
    lines = path.read_text().splitlines()
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "poimkit"
        ):
            names = [*node.module.split("."), *(a.name for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [
                p
                for a in node.names
                if a.name.startswith("poimkit")
                for p in a.name.split(".")
            ]
        else:
            continue
        if any(n.startswith("_") for n in names):
            yield node.lineno, lines[node.lineno - 1]


@pytest.mark.parametrize("folder", ["benchmarks", "validation"])
def test_scripts_use_the_public_api(folder):
    """No private poimkit name, except the few marked for issue 31."""
    unmarked = [
        f"{path.name}:{line}: {text.strip()}"
        for path in sorted((PACKAGE.parent / folder).rglob("*.py"))
        for line, text in _private_poimkit_imports(path)
        if "private: see issue 31" not in text
    ]
    assert not unmarked, f"private poimkit imports: {unmarked}"


def _imported_modules(path: Path, modules: dict) -> set:
    """The package's modules that ``path`` imports (function-level ones too)."""
    name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = name.split(".")[: -1 if path.name != "__init__.py" else -1]
    if path.name == "__init__.py":
        package = name.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - (node.level - 1)] if node.level else []
            target = ".".join(base + (node.module.split(".") if node.module else []))
            for alias in node.names:
                if f"{target}.{alias.name}" in modules:
                    out.add(f"{target}.{alias.name}")
                elif target in modules:
                    out.add(target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
    return out


def test_no_import_circle():
    """No two modules import each other, however indirectly (Tarjan's SCCs)."""
    modules = {}
    for path in _modules():
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    edges = {m: _imported_modules(p, modules) for m, p in modules.items()}
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while not part or part[-1] != v:
                part.append(stack.pop())
                on_stack.discard(part[-1])
            if len(part) > 1:
                circles.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    assert not circles, f"modules that import each other: {circles}"


def _namespace_leaks(source: str, where: str = "") -> list[str]:
    """Imports of argparse, ``Namespace`` and functions reading ``args.<option>``."""
    leaks = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] + [getattr(node, "module", "")]
            if any((n or "").split(".")[0] == "argparse" for n in names):
                leaks.append(f"{where}:{node.lineno} imports argparse")
        elif isinstance(node, ast.Attribute) and node.attr == "Namespace":
            leaks.append(f"{where}:{node.lineno} names Namespace")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            params = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            reads = any(
                isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name)
                and n.value.id == "args"
                for n in ast.walk(node)
            )
            if reads and any(a.arg == "args" for a in params):
                leaks.append(f"{where}:{node.lineno} {node.name}(args)")
    return leaks


def test_only_the_command_line_sees_parsed_arguments():
    """No module outside ``cli/`` imports argparse or reads ``args.<option>``.

    The command line stops at ``poimkit/cli/``: its modules turn the parsed
    arguments (an ``argparse.Namespace``) into typed library calls.
    """
    leaks = []
    for path in _modules():
        where = path.relative_to(PACKAGE)
        if where.parts[0] != "cli":
            leaks += _namespace_leaks(path.read_text(), where.as_posix())
    assert not leaks, f"parsed arguments outside poimkit/cli/: {leaks}"


def test_namespace_rule_catches_a_leak():
    """The rule fails on a library function reading an option off ``args``."""
    assert _namespace_leaks("def f(args):\n    return args.quiet\n") == [":1 f(args)"]
    assert _namespace_leaks("import argparse\n") == [":1 imports argparse"]
    assert _namespace_leaks("def g(context, args):\n    return args[0]\n") == []


#: code lines of a function (docstring, blank and comment lines excluded)
MAX_FUNCTION_LINES = 80
#: functions allowed above the cap, with the reason
LONG_FUNCTIONS: dict[str, str] = {}


def _code_lines(node: ast.FunctionDef, lines: list[str]) -> int:
    """Code lines of ``node``'s body, its docstring, blanks and comments left out."""
    body = node.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    if not body:
        return 0
    text = lines[body[0].lineno - 1 : node.end_lineno]
    return sum(1 for t in text if t.strip() and not t.strip().startswith("#"))


def _long_functions(source: str, where: str = "") -> dict[str, int]:
    lines = source.splitlines()
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            n = _code_lines(node, lines)
            if n > MAX_FUNCTION_LINES:
                found[f"{where}:{node.name}"] = n
    return found


def test_functions_do_one_step_each():
    """No function holds more than 80 lines of code (named exceptions)."""
    long = {}
    for path in _modules():
        where = path.relative_to(PACKAGE).as_posix()
        long.update(_long_functions(path.read_text(), where))
    unexplained = {k: v for k, v in long.items() if k not in LONG_FUNCTIONS}
    assert not unexplained, f"functions above {MAX_FUNCTION_LINES} code lines: {long}"
    stale = set(LONG_FUNCTIONS) - set(long)
    assert not stale, f"exceptions no longer needed: {sorted(stale)}"


def test_function_cap_counts_code_not_docstrings():
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES + 1))
    doc = '    """' + "\n".join(["doc"] * 50) + '"""\n'
    expected = {":f": MAX_FUNCTION_LINES + 1}
    assert _long_functions(f"def f():\n{doc}{body}\n") == expected
    short = "\n".join(f"    x{i} = {i}  # c\n    # comment\n" for i in range(50))
    assert _long_functions(f"def g():\n{doc}{short}\n") == {}


def _prints(source: str) -> list[int]:
    """Lines calling ``print`` (doctests, being strings, do not count)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "print"
    ]


def test_library_code_never_prints():
    """Only ``cli/`` prints; the library reports through `poimkit._messages`."""
    printing = {
        path.relative_to(PACKAGE).as_posix(): lines
        for path in _modules()
        if path.relative_to(PACKAGE).parts[0] != "cli"
        and (lines := _prints(path.read_text()))
    }
    assert not printing, f"print() outside poimkit/cli/: {printing}"
    assert _prints('def f():\n    """>>> print(1)"""\n    print(2)\n') == [3]
