"""Output folders that appear whole or not at all."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, fields
from pathlib import Path

from .._messages import tell
from ..errors import InputError


@dataclass(frozen=True)
class RunLayout:
    """The names of everything poimkit writes into an output folder.

    The one source of every file name of a run (``run``, ``explain``,
    ``interactions``): the writers join these to the folder, and ``--force``
    (`check_output_folder`) replaces a folder holding nothing else. A new
    output is a new field here, and nowhere else.

    Attributes
    ----------
    model, poim, top_kmers, motifs, sites, summary, report, figures : str
        What every run writes (``figures/`` a folder of PNGs).
    motif_model, stack, known : str
        The motifs as a model, the stack (if chosen), the known motifs tested.
    negatives_bed, negatives_fa, sites_bed : str
        What a run on peaks adds: its negatives, its sites in the genome.
    ohe, attr, attribution_poim, scores, contributions, logos : str
        What ``poimkit explain`` writes.
    interactions_table, interactions_figure : str
        What ``poimkit interactions`` writes.
    """

    model: str = "model.npz"
    poim: str = "poim.npz"
    top_kmers: str = "top_kmers.tsv"
    motifs: str = "motifs.meme"
    sites: str = "sites.tsv"
    summary: str = "summary.json"
    report: str = "report.html"
    figures: str = "figures"
    motif_model: str = "motif_model.npz"
    stack: str = "stack.npz"
    known: str = "known_motifs.tsv"
    negatives_bed: str = "negatives.bed"
    negatives_fa: str = "negatives.fa"
    sites_bed: str = "sites.bed"
    ohe: str = "ohe.npz"
    attr: str = "attr.npz"
    attribution_poim: str = "attribution_poim.npz"
    scores: str = "scores.tsv"
    contributions: str = "contributions.bw"
    logos: str = "logos"
    interactions_table: str = "interactions.tsv"
    interactions_figure: str = "interactions.png"

    def names(self) -> frozenset[str]:
        """Every name of the layout."""
        return frozenset(getattr(self, f.name) for f in fields(self))


#: the names of every output folder poimkit writes
LAYOUT = RunLayout()
#: what a poimkit output folder holds (anything else there is not ours to delete)
RUN_FILES = LAYOUT.names()
#: the ``format`` of a run's summary.json: the mark of a folder poimkit made
RUN_FORMAT = "poimkit-run-summary"
#: file in a staging folder naming the process that writes it
OWNER_FILE = ".poimkit-owner"
#: end of the name of the lock file next to an output folder (`output_lock`)
LOCK_SUFFIX = ".poimkit-lock"
#: staging folders and temporary files being written now (`remove_unfinished`)
_UNFINISHED: set[Path] = set()
#: the output locks this thread holds, with their depth (`output_lock`)
_HELD = threading.local()


@contextmanager
def unfinished(path: str | os.PathLike) -> Iterator[None]:
    """Mark ``path`` (a staging folder or temporary file) as being written.

    If the process must exit at once (`remove_unfinished`, e.g. on Ctrl-C
    while a compiled kernel runs), the marked paths are deleted.

    Parameters
    ----------
    path : str or path-like
        The folder or file; unmarked when the block ends.

    Yields
    ------
    None
    """
    path = Path(path)
    _UNFINISHED.add(path)
    try:
        yield
    finally:
        _UNFINISHED.discard(path)


def remove_unfinished() -> None:
    """Delete the staging folders and temporary files being written now."""
    for path in list(_UNFINISHED):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            with suppress(OSError):
                path.unlink()


def lock_path(out: str | os.PathLike) -> Path:
    """The lock file of output folder ``out``: ``.OUT.poimkit-lock`` beside it.

    Parameters
    ----------
    out : str or path-like
        The output folder.

    Returns
    -------
    pathlib.Path
        The lock file's path (absolute).

    Examples
    --------
    >>> lock_path("/data/results").name
    '.results.poimkit-lock'
    """
    out = Path(out).absolute()
    return out.parent / f".{out.name}{LOCK_SUFFIX}"


@contextmanager
def output_lock(out: str | os.PathLike) -> Iterator[Path]:
    """Hold the lock of output folder ``out``: one poimkit run writes it at a time.

    The lock is a file beside ``out`` (`lock_path`) created exclusively and
    holding this process's id; it is removed when the block ends (and by
    `remove_unfinished`). A lock whose process no longer runs is stale and
    taken over. The same thread may take a lock it holds again (the
    pipeline takes it early, `staged_directory` again); another thread or
    process is refused.

    Parameters
    ----------
    out : str or path-like
        The output folder (its parent must exist and be writable).

    Yields
    ------
    pathlib.Path
        The lock file.

    Raises
    ------
    InputError
        If another poimkit run holds the lock, naming its process id.
    """
    lock = lock_path(out)
    held = _HELD.__dict__.setdefault("locks", {})
    if lock in held:
        held[lock] += 1
        try:
            yield lock
        finally:
            held[lock] -= 1
        return
    _take_lock(lock, Path(out))
    held[lock] = 1
    try:
        with unfinished(lock):
            yield lock
    finally:
        del held[lock]
        if _lock_owner(lock) == os.getpid():
            with suppress(OSError):
                lock.unlink()


def _take_lock(lock: Path, out: Path) -> None:
    """Create ``lock`` holding this process's id, taking over a stale one."""
    for _ in range(3):
        try:
            handle = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            pid = _lock_owner(lock)
            if pid is None or process_alive(pid):  # no id yet: being written now
                shown = f"process {pid}" if pid else "its lock is being written"
                raise InputError(
                    f"output folder {out} is being written by another poimkit run "
                    f"({shown}); wait for it to end or choose another -o (if no "
                    f"run writes it, delete {lock})"
                ) from None
            if _lock_owner(lock) == pid:  # still the dead one's: take it over
                with suppress(FileNotFoundError):
                    lock.unlink()
            continue
        except OSError as exc:
            raise InputError.refused_write(exc, out) from None
        try:
            with os.fdopen(handle, "w") as file:
                file.write(str(os.getpid()))
        except OSError as exc:  # e.g. a full disk
            with suppress(OSError):
                lock.unlink()
            raise InputError.refused_write(exc, out) from None
        return
    raise InputError(f"output folder {out}: could not take its lock {lock}")


def _lock_owner(lock: Path) -> int | None:
    """The process id a lock file holds (None if missing, empty or unreadable)."""
    try:
        return int(lock.read_text())
    except (OSError, ValueError):
        return None


@contextmanager
def staged_directory(
    out: str | os.PathLike, force: bool = False, inputs: tuple = ()
) -> Iterator[Path]:
    """Yield an empty hidden folder next to ``out``; move it to ``out`` on success.

    The folder is created in the parent of ``out`` (same file system, so the
    final rename is atomic). If the block raises, including on
    `KeyboardInterrupt`, the staged folder is deleted and ``out`` is left as it
    was. With ``force``, an existing ``out`` is replaced only after the block
    succeeded, and only if poimkit made it (`check_output_folder`). Staging
    folders of ``out`` left by a killed run (their process is gone) are
    removed first, with a notice on standard error. The block holds the
    lock of ``out`` (`output_lock`): a second writer of the same folder is
    refused, and ``out`` is checked again once the lock is held (so a folder
    that another run finished meanwhile is not replaced without ``force``).

    Parameters
    ----------
    out : str or path-like
        The final folder.
    force : bool
        Replace ``out`` if it exists and is a poimkit run folder.
    inputs : tuple of path-like
        Input files, which ``out`` must not hold.

    Yields
    ------
    pathlib.Path
        The staged folder to write into.

    Raises
    ------
    InputError
        As `check_output_folder`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> with staged_directory(root / "result") as tmp:
    ...     _ = (tmp / "a.txt").write_text("done")
    >>> (root / "result" / "a.txt").read_text()
    'done'
    """
    out = check_output_folder(out, force, inputs)
    with output_lock(out):
        check_output_folder(out, force, inputs)  # another run may have made it
        with _staged(out) as staged:
            yield staged
    # mkdtemp makes 0700 folders; results are ordinary files for their owner's group
    os.chmod(out, 0o755)


@contextmanager
def _staged(out: Path) -> Iterator[Path]:
    """`staged_directory` once ``out`` is checked and locked."""
    parent = out.parent
    remove_stale_staging(out)
    try:
        staged = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=parent))
    except OSError as exc:  # e.g. a full disk
        raise InputError.refused_write(exc, out) from None
    with unfinished(staged):
        try:
            (staged / OWNER_FILE).write_text(str(os.getpid()))
            yield staged
            (staged / OWNER_FILE).unlink()
            _move_into_place(staged, out)
        except BaseException as exc:
            shutil.rmtree(staged, ignore_errors=True)
            if isinstance(exc, OSError) and _ours(exc.filename, out):
                raise InputError.refused_write(exc, out) from None  # e.g. disk full
            if isinstance(exc, InputError) and _inside(exc.path, staged):
                # a file of the run refused: name it where it was going
                where = out / Path(exc.path).relative_to(staged)
                raise InputError(exc.reason, path=str(where)) from None
            raise


def _inside(path: object, folder: Path) -> bool:
    """Whether ``path`` (a str, or None) lies in ``folder``."""
    return isinstance(path, str) and folder in Path(path).absolute().parents


def _ours(filename: object, out: Path) -> bool:
    """Whether an OS error is about ``out`` or its staging: no other file named."""
    if not isinstance(filename, str):
        return True
    name = Path(filename).absolute()
    staging = name.name.startswith(f".{out.name}.") or any(
        p.name.startswith(f".{out.name}.") for p in name.parents
    )
    return staging or name == out or out in name.parents


def _move_into_place(staged: Path, out: Path) -> None:
    """Rename ``staged`` to ``out``; an existing ``out`` is swapped out, then removed.

    If a rename fails, ``out`` is put back as it was before the error is
    raised: no staging folder of this run is left behind.
    """
    if not out.exists():
        os.replace(staged, out)
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    try:
        os.replace(out, retired / out.name)
        try:
            os.replace(staged, out)
        except OSError:
            os.replace(retired / out.name, out)  # the old results stay
            raise
    finally:
        shutil.rmtree(retired, ignore_errors=True)


def remove_stale_staging(out: Path) -> list[Path]:
    """Delete the staging folders of ``out`` whose writing process is gone.

    Only folders named like poimkit's (``.OUT.partial-*``, ``.OUT.old-*``)
    holding its owner file with the id of a process that no longer runs are
    removed; each is named on standard error.

    Parameters
    ----------
    out : pathlib.Path
        The output folder whose staging folders are looked for.

    Returns
    -------
    list of pathlib.Path
        The folders removed.
    """
    removed = []
    for pattern in (f".{out.name}.partial-*", f".{out.name}.old-*"):
        for folder in out.parent.glob(pattern):
            owner = folder / OWNER_FILE
            try:
                pid = int(owner.read_text())
            except (OSError, ValueError):
                continue  # not ours, or not readable: leave it
            if process_alive(pid):
                continue
            shutil.rmtree(folder, ignore_errors=True)
            tell(f"removed {folder}, left by an interrupted run")
            removed.append(folder)
    return removed


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (on this machine); a zombie does not.

    Parameters
    ----------
    pid : int
        A process id.

    Returns
    -------
    bool
    """
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, another user's
    try:  # Linux: a killed child not yet reaped by its parent is a zombie
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def check_output_folder(
    out: str | os.PathLike, force: bool = False, inputs: tuple = ()
) -> Path:
    """Raise `InputError` if ``out`` cannot become a new output folder; return it.

    Rules: the parent folder must exist and be writable; ``out`` must not be
    the current folder, one of its parents, or a folder holding an input.
    An existing ``out`` is refused unless ``force``, and even then unless
    poimkit made it: it holds the ``summary.json`` of a run and nothing but
    the files of a run (`RUN_FILES`); otherwise the error names what is
    there. Call this before long work so that a wrong ``-o`` fails at once.

    Parameters
    ----------
    out : str or path-like
        The output folder.
    force : bool
        Allow replacing an existing poimkit run folder.
    inputs : tuple of path-like
        Input files, which ``out`` must not hold (None entries are skipped).

    Returns
    -------
    pathlib.Path
        ``out``, resolved.
    """
    out = Path(out)
    resolved = out.resolve()
    if resolved == Path.cwd().resolve() or resolved in Path.cwd().resolve().parents:
        raise InputError(
            f"output folder {out} is the current folder or one of its parents; "
            "give a new folder for the results"
        )
    for path in inputs:
        if path is not None and resolved in Path(path).resolve().parents:
            raise InputError(
                f"output folder {out} holds the input {path}; give a new folder "
                "for the results"
            )
    check_writable(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"output folder {out} is an existing file")
    if out.exists() and not force:
        raise InputError(
            f"output folder {out} exists; choose another -o or pass --force to "
            "replace it"
        )
    if out.exists():
        _check_ours(out)
    return resolved


def check_writable(*paths: str | os.PathLike | None) -> None:
    """Raise `InputError` unless each path's folder exists and is writable.

    For output files and folders, checked before any work.

    Parameters
    ----------
    *paths : str, path-like or None
        Output files or folders; None is skipped.
    """
    for path in paths:
        if path is None:
            continue
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise InputError(f"cannot write {path}: folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise InputError(f"cannot write {path}: folder {folder} is not writable")


def _shown(names: list[str]) -> str:
    """The first five names, and ``...`` if there are more."""
    return ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")


def _check_ours(out: Path) -> None:
    """Raise unless ``out`` is a run folder poimkit wrote (what --force replaces).

    An empty folder may be replaced too: there is nothing in it to lose.
    """
    if not any(out.iterdir()):
        return
    try:
        made = json.loads((out / "summary.json").read_text()).get("format")
    except (OSError, ValueError, AttributeError):
        made = None
    held = sorted(p.name for p in out.iterdir())
    if made != RUN_FORMAT:
        raise InputError(
            f"output folder {out} was not made by poimkit (no summary.json of a "
            f"poimkit run; it holds {_shown(held)}); --force only replaces "
            "poimkit's own output folders"
        )
    foreign = [name for name in held if name not in RUN_FILES]
    if foreign:
        shown = _shown(foreign)
        raise InputError(
            f"output folder {out} holds files poimkit did not write ({shown}); "
            "--force replaces only a folder of poimkit's own results: move them "
            "or choose another -o"
        )
