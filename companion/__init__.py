"""Table Companion: the only package that wires engines, vision and devices together."""

__version__ = "0.1.0"
