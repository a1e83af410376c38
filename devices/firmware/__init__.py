"""Firmware for the RP2040 boards.  Only ``boardcore`` is imported on the host (by the
simulator and the tests); ``main.py`` runs on the board under MicroPython."""
