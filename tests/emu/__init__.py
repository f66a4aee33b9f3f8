"""The emulator cases and the harness that boots and judges them (see cases.py)."""
