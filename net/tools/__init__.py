"""Tools apart from the product: the headless CLI, benchmarks, test namespaces, protocol vectors."""
