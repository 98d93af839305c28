"""WDLinearSVC on a Dask LocalCluster gives the single-machine result."""

import numpy as np
import pytest

from poimkit.datasets import make_gattaca
from poimkit.linear import WDLinearSVC

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


@pytest.mark.parametrize("loss,shift", [("squared_hinge", 0), ("logistic", 1)])
def test_dask_matches_single_machine(client, loss, shift):
    X, y = make_gattaca(n_pos=150, n_neg=150, length=30, mean=10, sd=2, random_state=5)
    params = dict(degree=8, shift=shift, loss=loss, chunk_size=64, hash_bits=6)
    local = WDLinearSVC(**params).fit(X, y)
    remote = WDLinearSVC(**params).fit(X, y, client=client)
    assert len(client.scheduler_info()["workers"]) == 2
    # stated tolerance: bitwise equal for the same chunk_size; asserted to 1e-10
    assert remote.n_iter_ == local.n_iter_
    np.testing.assert_allclose(remote.dual_coef_, local.dual_coef_, rtol=1e-10)
    assert remote.intercept_ == pytest.approx(local.intercept_, rel=1e-10, abs=1e-12)
    np.testing.assert_allclose(
        remote.decision_function(X), local.decision_function(X), rtol=1e-10, atol=1e-12
    )


def test_embedded_local_cluster():
    X, y = make_gattaca(n_pos=40, n_neg=40, length=20, mean=8, sd=1, random_state=2)
    local = WDLinearSVC(degree=5, chunk_size=32).fit(X, y)
    remote = WDLinearSVC(degree=5, chunk_size=32).fit(X, y, client="local")
    np.testing.assert_allclose(remote.dual_coef_, local.dual_coef_, rtol=1e-10)
