"""Folds of whole chromosomes (`poimkit.svm.folds`) and their use in runs."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit.errors import InputError
from poimkit.genome.loci import Loci, record_loci
from poimkit.run.crossval import outer_folds
from poimkit.svm.folds import BLOCK, genomic_folds, group_splits
from poimkit.svm.selection import _inner_splits


def _loci(chroms, starts):
    return Loci(np.array(chroms, dtype=object), np.array(starts, dtype=np.int64))


def _genome_records(n_chrom, per_chrom, seed=0, length=50_000_000):
    """Records on ``n_chrom`` chromosomes, half positive on each."""
    rng = np.random.default_rng(seed)
    chroms = [f"chr{c + 1}" for c in range(n_chrom) for _ in range(per_chrom)]
    starts = rng.integers(0, length, size=len(chroms))
    y = np.tile(np.arange(per_chrom) % 2, n_chrom)
    return _loci(chroms, starts), y


def test_record_loci_reads_poimkit_and_plain_ids():
    loci = record_loci(
        ["chr1:100-300(+)", "shuffle7:chr2:5-65(-)", "chrUn_gl1:0-10#4", "7:1-9"]
    )
    assert loci.chrom.tolist() == ["chr1", "chr2", "chrUn_gl1", "7"]
    assert loci.start.tolist() == [100, 5, 0, 1]


@pytest.mark.parametrize("bad", ["seq1", "chr1:100", "chr1:a-b", "chr1:1-5 extra"])
def test_record_loci_names_the_record_it_cannot_read(bad):
    with pytest.raises(InputError, match="record 2") as caught:
        record_loci(["chr1:1-5", bad], path="in.fa")
    assert "in.fa" in str(caught.value) and "--cv-by random" in str(caught.value)


def test_folds_hold_out_whole_chromosomes():
    loci, y = _genome_records(n_chrom=12, per_chrom=20)
    plan = genomic_folds(loci, y, n_folds=5, seed=0)
    assert plan.split == "chromosome" and plan.note == ""
    tested = []
    for train, test in plan.folds:
        test_chroms = set(loci.chrom[test])
        assert not test_chroms & set(loci.chrom[train])
        assert set(y[test]) == {0, 1}
        tested += sorted(test_chroms)
    assert sorted(tested) == sorted(set(loci.chrom))  # each held out once
    sizes = [test.size for _, test in plan.folds]
    assert max(sizes) - min(sizes) <= 20  # balanced to one chromosome
    rows = [entry["chromosomes"] for entry in plan.describe()]
    assert sum(map(len, rows)) == 12


def test_too_few_chromosomes_give_blocks_then_a_random_split():
    loci, y = _genome_records(n_chrom=2, per_chrom=60, length=60_000_000)
    plan = genomic_folds(loci, y, n_folds=5, seed=1)
    assert plan.split == "block" and "too few chromosomes (2)" in plan.note
    blocks = loci.groups(BLOCK)
    for train, test in plan.folds:
        assert not set(blocks[test]) & set(blocks[train])
    small, y_small = _genome_records(n_chrom=1, per_chrom=40, length=1_000_000)
    plan = genomic_folds(small, y_small, n_folds=3, seed=0)
    assert plan.split == "random" and "a random split" in plan.note
    assert plan.groups is None and len(plan.folds) == 3


def test_an_inner_cv_needs_chromosomes_in_every_training_part():
    loci, y = _genome_records(n_chrom=3, per_chrom=30, length=5_000_000)
    assert genomic_folds(loci, y, 3, 0).split == "chromosome"
    # 2 chromosomes per training part cannot make 3 inner folds
    assert genomic_folds(loci, y, 3, 0, inner_folds=3).split != "chromosome"


def test_a_class_missing_from_a_fold_is_no_split():
    groups = np.array(["a"] * 10 + ["b"] * 10 + ["c"] * 10)
    y = np.r_[np.ones(10), np.zeros(20)].astype(int)  # a alone holds positives
    assert group_splits(y, groups, 3, 0) is None


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 7), min_size=30, max_size=80),
    st.integers(2, 4),
    st.integers(0, 10),
)
def test_group_folds_partition_rows_without_sharing_a_group(group, n_folds, seed):
    groups = np.array([f"g{g}" for g in group])
    y = np.arange(groups.size) % 2
    for classes in (True, False):
        folds = group_splits(y, groups, n_folds, seed, classes)
        if folds is None:
            assert np.unique(groups).size < n_folds or classes
            continue
        tests = np.sort(np.concatenate([test for _, test in folds]))
        assert np.array_equal(tests, np.arange(y.size))
        for train, test in folds:
            assert np.array_equal(np.sort(np.r_[train, test]), np.arange(y.size))
            assert not set(groups[train]) & set(groups[test])


def test_inner_splits_keep_chromosomes_whole_or_say_random():
    loci, y = _genome_records(n_chrom=8, per_chrom=10)
    groups = loci.groups()
    folds, scheme = _inner_splits(y, 3, 0, "auc", groups)
    assert scheme == "by-chromosome 3-fold"
    for train, test in folds:
        assert not set(groups[train]) & set(groups[test])
    folds, scheme = _inner_splits(y, 3, 0, "auc", np.array(["one"] * y.size))
    assert scheme == "3-fold"  # too few groups: the random split


def test_outer_folds_by_chromosome_from_ids():
    ids = [f"chr{c}:{i * 1000}-{i * 1000 + 100}" for c in range(1, 7) for i in range(5)]
    y = np.linspace(0, 1, len(ids))
    plan = outer_folds(y, 3, 0, ids)
    assert plan.split == "chromosome"
    chrom = np.array([i.split(":")[0] for i in ids])
    for train, test in plan.folds:
        assert not set(chrom[train]) & set(chrom[test])
    assert outer_folds(y, 3, 0).split == "random"
