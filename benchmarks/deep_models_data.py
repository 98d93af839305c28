"""The data of `bench_deep_models.py`: the real sets, their splits, GC matching."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

#: the shared real sets (see each PROVENANCE.md)
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
CTCF_CROP = 314
CTCF_TRAIN = ("chr14", "chr15", "chr16")
CTCF_TEST = ("chr17", "chr18")
GC_BIN = 0.02
SEED = 0
NFE2_TEST_SHARE = 0.2


def _read(path: Path, notes: list[str], **kwargs):
    from poimkit.io import read_fasta

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ids, X = read_fasta(path, on_invalid="drop", **kwargs)
    for w in caught:
        text = str(w.message).split(": ", 1)[-1].split(": '", 1)[0]
        notes.append(f"{path.name}: {text}")
    seqs = [np.ascontiguousarray(x, dtype=np.uint8) for x in X]
    return list(ids), seqs


def _chrom(record_id: str) -> str:
    return record_id.split(":", 1)[0]


def _karyotype_key(chrom: str):
    name = chrom.removeprefix("chr")
    return (0, int(name), "") if name.isdigit() else (1, 0, name)


def _labeled(pos: Path, neg: Path, notes: list[str], **kwargs):
    pid, pseq = _read(pos, notes, **kwargs)
    nid, nseq = _read(neg, notes, **kwargs)
    ids = pid + nid
    y = np.array([1] * len(pid) + [0] * len(nid), dtype=np.int64)
    return ids, pseq + nseq, y


def load_set(name: str) -> dict:
    notes: list[str] = []
    if name == "ctcf":
        folder = DATA / "ctcf_gm12878"
        ids, seqs, y = _labeled(
            folder / "positives_chr14-18.fa.gz",
            folder / "negatives_chr14-18.fa.gz",
            notes,
            crop_length=CTCF_CROP,
            drop_short=True,
        )
        chrom = np.array([_chrom(i) for i in ids])
        train = np.isin(chrom, CTCF_TRAIN)
        test = np.isin(chrom, CTCF_TEST)
        split = (
            f"train {', '.join(CTCF_TRAIN)}; test {', '.join(CTCF_TEST)}; every "
            f"record centre-cropped to {CTCF_CROP} nt (shorter records dropped)"
        )
    elif name == "nanog":
        folder = DATA / "nanog"
        tr = _labeled(
            folder / "positives_train.fa", folder / "negatives_train.fa", notes
        )
        te = _labeled(folder / "positives_test.fa", folder / "negatives_test.fa", notes)
        ids, seqs = tr[0] + te[0], tr[1] + te[1]
        y = np.concatenate([tr[2], te[2]])
        chrom = np.array([_chrom(i) for i in ids])
        train = np.arange(len(ids)) < len(tr[0])
        test = ~train
        split = "the authors' train/test files (test = chr1, chr2)"
    elif name == "nfe2":
        folder = DATA / "nfe2"
        ids, seqs, y = _labeled(
            folder / "positives.fa", folder / "negatives.fa", notes, any_length=True
        )
        chrom = np.array([_chrom(i) for i in ids])
        order = sorted(set(chrom.tolist()), key=_karyotype_key)
        counts = np.array([(chrom == c).sum() for c in order])
        share = np.cumsum(counts) / chrom.size
        k = int(np.argmin(np.abs(share - NFE2_TEST_SHARE))) + 1
        held = order[:k]
        test = np.isin(chrom, held)
        train = ~test
        split = (
            f"test = whole chromosomes {', '.join(held)} ({share[k - 1]:.1%} of the "
            "records: the karyotype-order prefix closest to 20 %), train = the rest; "
            "records at their own lengths"
        )
    else:
        raise ValueError(name)
    if len(set(ids)) != len(ids):
        notes.append(
            f"{len(ids) - len(set(ids))} ids shared by a positive and a negative"
        )
    rows_tr, rows_te = np.flatnonzero(train), np.flatnonzero(test)
    return {
        "name": name,
        "split": split,
        "notes": notes,
        "train_seqs": [seqs[i] for i in rows_tr],
        "train_y": y[rows_tr],
        "train_groups": chrom[rows_tr],
        "train_ids": [ids[i] for i in rows_tr],
        "test_seqs": [seqs[i] for i in rows_te],
        "test_y": y[rows_te],
        "test_groups": chrom[rows_te],
    }


def stratified(y: np.ndarray, per_class: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = [rng.permutation(np.flatnonzero(y == c))[:per_class] for c in (1, 0)]
    return np.sort(np.concatenate(rows))


def stratified_share(y: np.ndarray, total: int, seed: int) -> np.ndarray:
    """At most ``total`` rows, each class in its share of ``y`` (seeded)."""
    if y.size <= total:
        return np.arange(y.size)
    rng = np.random.default_rng(seed)
    rows = []
    for c in (1, 0):
        mine = np.flatnonzero(y == c)
        take = int(round(total * mine.size / y.size))
        rows.append(rng.permutation(mine)[:take])
    return np.sort(np.concatenate(rows))


def take(data: dict, part: str, rows: np.ndarray) -> None:
    data[f"{part}_seqs"] = [data[f"{part}_seqs"][i] for i in rows]
    data[f"{part}_y"] = data[f"{part}_y"][rows]
    data[f"{part}_groups"] = data[f"{part}_groups"][rows]


def gc_content(seqs: list[np.ndarray]) -> np.ndarray:
    return np.array([np.isin(s, (1, 2)).mean() for s in seqs])


def gc_matched(gc: np.ndarray, y: np.ndarray, seed: int = SEED) -> np.ndarray:
    """Rows of a subset with as many positives as negatives in every GC bin."""
    rng = np.random.default_rng(seed)
    bins = np.floor(gc / GC_BIN).astype(int)
    keep = []
    for b in np.unique(bins):
        pos = np.flatnonzero((bins == b) & (y == 1))
        neg = np.flatnonzero((bins == b) & (y == 0))
        n = min(pos.size, neg.size)
        keep += [rng.choice(pos, n, replace=False), rng.choice(neg, n, replace=False)]
    return np.sort(np.concatenate(keep)) if keep else np.array([], dtype=int)


def _pack(seqs: list[np.ndarray]):
    lengths = np.array([len(s) for s in seqs], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    return np.concatenate(seqs).astype(np.uint8), offsets


def unpack(codes: np.ndarray, offsets: np.ndarray) -> list[np.ndarray]:
    return [codes[offsets[i] : offsets[i + 1]] for i in range(offsets.size - 1)]


def save_split(data: dict, path: Path) -> None:
    tr_codes, tr_off = _pack(data["train_seqs"])
    te_codes, te_off = _pack(data["test_seqs"])
    np.savez(
        path,
        train_codes=tr_codes,
        train_offsets=tr_off,
        train_y=data["train_y"],
        train_groups=data["train_groups"].astype(str),
        test_codes=te_codes,
        test_offsets=te_off,
    )
