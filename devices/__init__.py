"""USB serial peripherals: framed protocol, host driver, discovery, simulator and firmware.

The server uses :class:`devices.manager.DeviceManager`; nothing here imports
engines or companion (docs/protocol.md describes the wire format).
"""
