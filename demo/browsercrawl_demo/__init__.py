"""The bundled demo community site: a hard, deterministic crawl target for tests and benchmarks."""
