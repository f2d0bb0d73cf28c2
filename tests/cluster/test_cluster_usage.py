"""Cluster flags that cannot work are usage errors (exit 2, one line), before anything starts."""

from __future__ import annotations

import sys

import pytest

from court.cli import main


@pytest.mark.parametrize("spec", ["banana", "local:0", "local:x", "local:"])
def test_a_malformed_cluster_spec_is_a_usage_error(capsys, spec):
    assert main(["fuzz", "--cluster", spec, "--examples", "1"]) == 2
    err = capsys.readouterr().err
    assert "--cluster must be local or local:N" in err


def test_a_malformed_scheduler_address_is_a_usage_error(capsys):
    assert main(["run", "corpus", "--scheduler", "http://nowhere"]) == 2
    assert "--scheduler must be tcp://HOST:PORT" in capsys.readouterr().err


def test_cluster_and_scheduler_exclude_each_other(capsys):
    assert main(["fuzz", "--cluster", "local", "--scheduler", "tcp://h:1"]) == 2
    assert "not allowed with" in capsys.readouterr().err


def test_without_dask_the_error_names_the_extra(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    assert main(["fuzz", "--cluster", "local:2", "--examples", "1"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'lispex-court[cluster]'" in err
    assert main(["run", "corpus", "--cluster", "local:2"]) == 2
    assert "pip install 'lispex-court[cluster]'" in capsys.readouterr().err


def test_an_unreachable_scheduler_is_a_usage_error(capsys, tmp_path, monkeypatch):
    pytest.importorskip("distributed", reason="needs Dask distributed to try connecting")
    from court.cluster import connect

    monkeypatch.setattr(connect, "CONNECT_TIMEOUT", 2.0)
    code = main(["run", "corpus/conformance/chars", "--scheduler", "tcp://127.0.0.1:9",
                 "--report-dir", str(tmp_path)])
    assert code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in capsys.readouterr().err


def test_cluster_specs_parse():
    from court.cluster.connect import ClusterSpec, cores, parse_spec

    assert parse_spec(None, None) is None
    assert parse_spec("local:3", None) == ClusterSpec(local_workers=3)
    assert parse_spec("local", None) == ClusterSpec(local_workers=cores())
    assert parse_spec(None, "tcp://10.0.0.5:8786") == ClusterSpec(address="tcp://10.0.0.5:8786")
    assert parse_spec(None, "sched.example:8786") == ClusterSpec(address="tcp://sched.example:8786")


def test_chunk_seeds_depend_on_the_campaign_seed_and_index_only():
    from court.cluster.fuzz_chunks import chunk_seed

    # Pinned: a saved finding's chunk_seed must mean the same programs in a later version.
    assert chunk_seed(0, 0) == 0xE8A350619534E99F
    assert chunk_seed(1, 7) == 0xDA50A1E64EC44DA9
    seeds = {chunk_seed(s, i) for s in range(3) for i in range(50)}
    assert len(seeds) == 150
