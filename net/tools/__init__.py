"""Tools apart from the product: benchmarks, test namespaces, protocol vectors.

The ``parlour host`` / ``parlour join`` command line is the product's, in ``net.cli``.
"""
