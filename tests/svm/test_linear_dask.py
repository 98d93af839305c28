"""WDLinearSVC on a Dask LocalCluster gives the single-machine result."""

import numpy as np
import pytest

from poimkit.datasets import make_gattaca
from poimkit.svm.linear import WDLinearSVC

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


@pytest.mark.parametrize(
    "loss,shift,chunk_size", [("squared_hinge", 0, 64), ("logistic", 1, 1000)]
)
def test_dask_matches_single_machine_bitwise(client, loss, shift, chunk_size):
    X, y = make_gattaca(n_pos=150, n_neg=150, length=30, mean=10, sd=2, random_state=5)
    params = dict(degree=8, shift=shift, loss=loss, chunk_size=chunk_size, hash_bits=6)
    local = WDLinearSVC(**params).fit(X, y)
    remote = WDLinearSVC(**params).fit(X, y, client=client)
    assert len(client.scheduler_info()["workers"]) == 2
    # the stated tolerance: bitwise equal for the same chunk_size
    assert remote.n_iter_ == local.n_iter_
    np.testing.assert_array_equal(remote.coef_, local.coef_)
    assert remote.intercept_ == local.intercept_


def test_embedded_local_cluster():
    X, y = make_gattaca(n_pos=40, n_neg=40, length=20, mean=8, sd=1, random_state=2)
    local = WDLinearSVC(degree=5, chunk_size=32).fit(X, y)
    remote = WDLinearSVC(degree=5, chunk_size=32).fit(X, y, client="local")
    np.testing.assert_array_equal(remote.coef_, local.coef_)
