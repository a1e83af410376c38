"""Rules engines: pure game logic, no I/O, no threads, no clock, stdlib only.

Every game implements the contract in :mod:`engines.core`; :mod:`engines.registry`
finds them by id.
"""
